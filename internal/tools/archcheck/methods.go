package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
)

// A type with many methods holds many jobs: a newcomer reads it whole to change one. The
// method-count rule caps every hand-written type, counting exported and unexported
// methods on value and pointer receivers alike.

// maxMethods is the most methods a type may have (the read cache's Client, a generic
// cache with its options, is the largest type that holds one job).
const maxMethods = 22

// methodLimits are tighter caps for types once split by job, so that they stay split;
// keys are the module-relative package path and the type name ("internal/service.Node").
var methodLimits = map[string]int{
	"internal/service.Node": 15,
	"adapters/redis.Gate":   15,
}

// methodException lets a type keep more methods than its cap, for now.
type methodException struct {
	typ   string // as in methodLimits
	allow int    // the most methods it may have meanwhile
	why   string
}

// temporaryMethods lists types allowed over their cap until the change that splits them
// is merged. Every entry is a debt: remove it with the split, never add one to let a type
// grow.
var temporaryMethods = []methodException{}

// skippedDirs are module-relative directories of generated code, not counted.
var skippedDirs = []string{"ent", "graph/generated"}

// skippedFiles are module-relative generated files outside those directories.
var skippedFiles = []string{"graph/model/models_gen.go"}

// methodLimit is the cap for type typ and the exception that raises it, if any.
func methodLimit(typ string) (limit int, exc *methodException) {
	limit = maxMethods
	if l, ok := methodLimits[typ]; ok {
		limit = l
	}
	for i, e := range temporaryMethods {
		if e.typ == typ {
			return limit, &temporaryMethods[i]
		}
	}
	return limit, nil
}

// isResolver reports whether a type of package dir is one of gqlgen's resolvers (the
// root Resolver and queryResolver, mutationResolver, …): one method per GraphQL field by
// design.
func isResolver(dir, name string) bool {
	return under(dir, "graph") && strings.HasSuffix(name, "Resolver")
}

// countMethods counts the methods of every type declared in the module at root, by
// "module-relative package path.type name", leaving out tests, generated code and the
// resolvers.
func countMethods(root string) (map[string]int, error) {
	counts := map[string]int{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			name := d.Name()
			if rel != "." && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") ||
				name == "testdata" || name == "vendor" || name == "node_modules" || skipped(rel, skippedDirs)) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") || skipped(rel, skippedFiles) {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution|parser.ParseComments)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) {
			return nil
		}
		addMethods(counts, filepath.ToSlash(filepath.Dir(rel)), f)
		return nil
	})
	return counts, err
}

func skipped(rel string, list []string) bool {
	for _, s := range list {
		if under(rel, s) {
			return true
		}
	}
	return false
}

// addMethods counts the methods file f of package dir declares.
func addMethods(counts map[string]int, dir string, f *ast.File) {
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Recv == nil || len(fn.Recv.List) == 0 {
			continue
		}
		name := receiverType(fn.Recv.List[0].Type)
		if name == "" || isResolver(dir, name) {
			continue
		}
		counts[dir+"."+name]++
	}
}

// receiverType is the name of a receiver's type: T, *T, T[P] or *T[P, Q].
func receiverType(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}

// methodProblems says which types have more methods than they may, and which temporary
// exceptions excuse nothing any more.
func methodProblems(counts map[string]int) []string {
	var problems []string
	for typ, n := range counts {
		limit, exc := methodLimit(typ)
		switch {
		case exc != nil && n > exc.allow:
			problems = append(problems, fmt.Sprintf("%s has %d methods, more than the %d its exception allows (%s): split it by job", typ, n, exc.allow, exc.why))
		case exc == nil && n > limit:
			problems = append(problems, fmt.Sprintf("%s has %d methods, more than %d: split it by job", typ, n, limit))
		}
	}
	for _, e := range temporaryMethods {
		if limit, _ := methodLimit(e.typ); counts[e.typ] <= limit {
			problems = append(problems, fmt.Sprintf("%s has %d methods, within its cap of %d: remove its exception (%s)", e.typ, counts[e.typ], limit, e.why))
		}
	}
	sort.Strings(problems)
	return problems
}
