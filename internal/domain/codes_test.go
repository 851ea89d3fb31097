package domain_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"testing"

	"github.com/dealspot/dealspot/internal/domain"
)

// TestClientCodesListEveryCode fails when a Code constant of this package is missing
// from ClientCodes, the list the schema and the README are written from.
func TestClientCodesListEveryCode(t *testing.T) {
	listed := map[domain.Code]bool{}
	for _, c := range domain.ClientCodes() {
		if listed[c.Code] {
			t.Errorf("%s is listed twice", c.Code)
		}
		if c.Meaning == "" {
			t.Errorf("%s has no meaning", c.Code)
		}
		listed[c.Code] = true
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	found := 0
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Code" {
					continue
				}
				for _, v := range vs.Values {
					lit, ok := v.(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						continue
					}
					found++
					code := domain.Code(lit.Value[1 : len(lit.Value)-1])
					if !listed[code] {
						t.Errorf("%s (%s) is not in ClientCodes", code, fset.Position(lit.Pos()))
					}
				}
			}
		}
	}
	if found < len(listed) {
		t.Errorf("found %d Code constants, fewer than the %d codes listed", found, len(listed))
	}
}
