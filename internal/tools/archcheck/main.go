// Command archcheck fails when an import points the wrong way (see DESIGN.md §1):
// domain imports only the standard library; app imports domain, other app packages and
// a short list of pure libraries; graph never imports adapters; adapters never import
// graph, the server, the composition root or another adapter, and from internal/ only
// domain, the app packages whose ports they implement, the read cache and the libraries
// (never internal/config: the composition root hands them settings structs); only cmd/
// and internal/service import adapters. Test code is held to rules of its own (testViolation):
// the layers stay apart in tests too, and test helpers are for tests only. No
// hand-written type outside the GraphQL resolvers has more than 22 methods (methods.go).
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
)

const module = "github.com/dealspot/dealspot/"

// appLibraries are third-party packages the app layer may use: pure computation, no I/O.
// The OpenTelemetry API (trace, attribute, codes) records nothing by itself: a use case
// adds its span to the trace its context carries, and only the composition root chooses
// an SDK and an exporter (the SDK stays refused here). argon2 hashes passwords: CPU and
// memory, no I/O.
var appLibraries = []string{
	"github.com/golang-jwt/jwt/v5",
	"golang.org/x/crypto/argon2",
	"golang.org/x/image/",
	"golang.org/x/sync/",
	"go.opentelemetry.io/otel/trace",
	"go.opentelemetry.io/otel/attribute",
	"go.opentelemetry.io/otel/codes",
}

// libraries are packages of this module below the layers: every layer may import them,
// as it may the pure libraries above, and they import nothing but the standard library
// and those (tracespan: the spans of a claim's hops, over the OpenTelemetry API, for the
// use cases and the adapters alike).
var libraries = []string{"internal/tracespan"}

// isPureLibrary reports whether imp is one of appLibraries.
func isPureLibrary(imp string) bool {
	for _, lib := range appLibraries {
		if strings.HasPrefix(imp, lib) || imp == strings.TrimSuffix(lib, "/") {
			return true
		}
	}
	return false
}

// appHelpers are the app packages that declare no port: the assembled Application
// (internal/app itself, this path only) and the use cases' helpers. An adapter imports
// an app package for the ports it implements and the types they speak in, so never one
// of these. A helper package added under internal/app goes on this list. (The contract
// packages' shared contracttest is a test helper: adapter tests may use it, production
// code may not, by the test helper rule.)
var appHelpers = []string{"internal/app", "internal/app/batchread"}

// adapterInternals are the packages under internal/ an adapter may import, besides the
// app packages that are not helpers and the libraries: the domain, and the read cache,
// infrastructure the cache adapters plug into (localcache, redis, metrics).
var adapterInternals = []string{"internal/domain", "internal/readcache"}

// exception is one import the rules refuse but the tree still has, for now.
type exception struct {
	from string // module-relative
	imp  string // the import path as go list reports it
	test bool   // the import is in test code
	why  string
}

// temporary lists imports allowed until the change that removes them is merged. Every
// entry is a debt: remove it with the import, never add one to silence a new violation.
var temporary = []exception{}

// shared are adapter packages every adapter may import: formats that two adapters must
// agree on (the claim message the gate writes and the queue reads). A shared package is
// itself an adapter, so it imports no other.
var shared = []string{"adapters/claimwire"}

type pkg struct {
	ImportPath   string
	Imports      []string
	TestImports  []string
	XTestImports []string
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
		from := strings.TrimPrefix(p.ImportPath, module)
		check := func(imports []string, test bool, rule func(from, imp string) string) {
			for _, imp := range imports {
				why := rule(from, imp)
				if why == "" || excepted(from, imp, test) {
					continue
				}
				kind := "imports"
				if test {
					kind = "test imports"
				}
				problems = append(problems, fmt.Sprintf("%s %s %s: %s", p.ImportPath, kind, imp, why))
			}
		}
		check(p.Imports, false, violation)
		check(p.TestImports, true, testViolation)
		check(p.XTestImports, true, testViolation)
	}
	counts, err := countMethods(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "archcheck: count methods:", err)
		os.Exit(2)
	}
	problems = append(problems, methodProblems(counts)...)
	for _, p := range problems {
		fmt.Println(p)
	}
	if len(problems) > 0 {
		os.Exit(1)
	}
}

// excepted reports whether the import is on the temporary list.
func excepted(from, imp string, test bool) bool {
	for _, e := range temporary {
		if e.from == from && e.imp == imp && e.test == test {
			return true
		}
	}
	return false
}

func isStd(imp string) bool { return !strings.Contains(strings.SplitN(imp, "/", 2)[0], ".") }

// under reports whether path is dir or inside it.
func under(path, dir string) bool { return path == dir || strings.HasPrefix(path, dir+"/") }

// underAny reports whether path is one of dirs or inside one.
func underAny(path string, dirs []string) bool {
	return slices.ContainsFunc(dirs, func(dir string) bool { return under(path, dir) })
}

// adapterRoot returns "adapters/X" for a path under adapters/X, "" otherwise.
func adapterRoot(path string) string {
	parts := strings.SplitN(path, "/", 3)
	if len(parts) < 2 || parts[0] != "adapters" {
		return ""
	}
	return parts[0] + "/" + parts[1]
}

// isTestHelper reports whether a module-relative path is a package written for tests:
// internal/testsupport, or one whose last element ends in "test" (redistest, the
// contract packages authtest, seckilltest ...).
func isTestHelper(path string) bool {
	if under(path, "internal/testsupport") {
		return true
	}
	last := path[strings.LastIndex(path, "/")+1:]
	return strings.HasSuffix(last, "test")
}

// violation says why production code of package from (module-relative) may not import
// imp, or "" when it may.
func violation(from, imp string) string {
	own := strings.HasPrefix(imp, module)
	to := strings.TrimPrefix(imp, module)
	if own && isTestHelper(to) && !isTestHelper(from) {
		return "only tests and test helpers import test helpers"
	}
	return layerViolation(from, imp)
}

// testViolation says why test code of package from may not import imp, or "" when it
// may. Tests keep the layers apart as production code does, with two allowances: any
// test may import test helpers (contract suites, redistest, testsupport — an app test
// still only those under internal/app), and an adapter's tests may use other adapters.
func testViolation(from, imp string) string {
	own := strings.HasPrefix(imp, module)
	to := strings.TrimPrefix(imp, module)
	if own && isTestHelper(to) {
		switch {
		case under(from, "internal/domain"):
			return "domain tests may import only the standard library and domain"
		case under(from, "internal/app") && !under(to, "internal/app"):
			return "app tests may import only app test helpers, not adapters or services"
		case adapterRoot(from) != "" || !under(to, "adapters"):
			return ""
		}
	}
	if under(from, "internal/readcache") && own && under(to, "adapters") {
		return "" // the read cache's tests run it on the adapters it is built for
	}
	if adapterRoot(from) != "" && own && under(to, "adapters") {
		return "" // an adapter's tests may wire it to another (the queue on a Redis connection)
	}
	if why := layerViolation(from, imp); why != "" {
		if under(from, "internal/app") && own && under(to, "adapters") {
			return "app tests must not import adapters: use the fakes of the app's contract packages"
		}
		return why
	}
	return ""
}

// layerViolation holds the rules shared by production and test code.
func layerViolation(from, imp string) string {
	own := strings.HasPrefix(imp, module)
	to := strings.TrimPrefix(imp, module)
	switch {
	case under(from, "internal/domain"):
		if !isStd(imp) && !(own && under(to, "internal/domain")) {
			return "domain may import only the standard library"
		}
	case underAny(from, libraries):
		if !isStd(imp) && !isPureLibrary(imp) && !(own && underAny(to, libraries)) {
			return "a library may import only the standard library and pure libraries"
		}
	case under(from, "internal/app"):
		if isStd(imp) || isPureLibrary(imp) ||
			(own && (under(to, "internal/domain") || under(to, "internal/app") || underAny(to, libraries))) {
			return ""
		}
		return "app may import only domain, app and pure libraries"
	case under(from, "graph"):
		if own && under(to, "adapters") {
			return "graph must reach adapters through app ports"
		}
	case under(from, "adapters"):
		if own && (under(to, "graph") || under(to, "internal/service") ||
			under(to, "internal/server") || under(to, "cmd")) {
			return "adapters must not depend on transports or the composition root"
		}
		if own && under(to, "adapters") && adapterRoot(to) != adapterRoot(from) && !underAny(to, shared) {
			return "an adapter may import only its own packages and the shared formats, not another adapter"
		}
		if own && under(to, "internal/config") {
			return "an adapter takes a settings struct the composition root fills; only internal/service reads internal/config"
		}
		if own && slices.Contains(appHelpers, to) {
			return "an adapter imports app packages for the ports it implements, not the application or its helpers"
		}
		if own && under(to, "internal") && !under(to, "internal/app") && !underAny(to, libraries) &&
			!underAny(to, adapterInternals) && !isTestHelper(to) { // test helpers: see violation, testViolation
			return "an adapter imports from internal/ only domain, app ports, the read cache and the libraries"
		}
	}
	if own && under(to, "adapters") && !under(from, "adapters") &&
		!under(from, "cmd") && !under(from, "internal/service") &&
		!under(from, "internal/testsupport") {
		return "only cmd/ and internal/service import adapters"
	}
	return ""
}
