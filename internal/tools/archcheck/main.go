// Command archcheck fails when an import points the wrong way (see DESIGN.md §1):
// domain imports only the standard library; app imports domain, other app packages and
// a short list of pure libraries; graph never imports adapters; adapters never import
// graph, the server or the composition root; only cmd/ and internal/service import
// adapters.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
)

const module = "github.com/dealspot/dealspot/"

// appLibraries are third-party packages the app layer may use: pure computation, no I/O.
var appLibraries = []string{
	"github.com/golang-jwt/jwt/v5",
	"golang.org/x/sync/",
}

type pkg struct {
	ImportPath string
	Imports    []string
	Standard   bool
}

func main() {
	out, err := exec.Command("go", "list", "-e", "-json", "./...").Output()
	if err != nil {
		fmt.Fprintln(os.Stderr, "archcheck: go list:", err)
		os.Exit(2)
	}
	var problems []string
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			fmt.Fprintln(os.Stderr, "archcheck: decode:", err)
			os.Exit(2)
		}
		for _, imp := range p.Imports {
			if why := violation(strings.TrimPrefix(p.ImportPath, module), imp); why != "" {
				problems = append(problems, fmt.Sprintf("%s imports %s: %s", p.ImportPath, imp, why))
			}
		}
	}
	for _, p := range problems {
		fmt.Println(p)
	}
	if len(problems) > 0 {
		os.Exit(1)
	}
}

func isStd(imp string) bool { return !strings.Contains(strings.SplitN(imp, "/", 2)[0], ".") }

func violation(from, imp string) string {
	own := strings.HasPrefix(imp, module)
	to := strings.TrimPrefix(imp, module)
	switch {
	case strings.HasPrefix(from, "internal/domain"):
		if !isStd(imp) && !(own && strings.HasPrefix(to, "internal/domain")) {
			return "domain may import only the standard library"
		}
	case strings.HasPrefix(from, "internal/app"):
		if isStd(imp) || (own && (strings.HasPrefix(to, "internal/domain") || strings.HasPrefix(to, "internal/app"))) {
			return ""
		}
		for _, lib := range appLibraries {
			if strings.HasPrefix(imp, lib) || imp == strings.TrimSuffix(lib, "/") {
				return ""
			}
		}
		return "app may import only domain, app and pure libraries"
	case strings.HasPrefix(from, "graph"):
		if own && strings.HasPrefix(to, "adapters/") {
			return "graph must reach adapters through app ports"
		}
	case strings.HasPrefix(from, "adapters/"):
		if own && (strings.HasPrefix(to, "graph") || strings.HasPrefix(to, "internal/service") ||
			strings.HasPrefix(to, "internal/server") || strings.HasPrefix(to, "cmd/")) {
			return "adapters must not depend on transports or the composition root"
		}
	}
	if own && strings.HasPrefix(to, "adapters/") && !strings.HasPrefix(from, "adapters/") &&
		!strings.HasPrefix(from, "cmd/") && !strings.HasPrefix(from, "internal/service") &&
		!strings.HasPrefix(from, "internal/testsupport") {
		return "only cmd/ and internal/service import adapters"
	}
	return ""
}
