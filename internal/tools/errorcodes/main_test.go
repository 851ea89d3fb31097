package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dealspot/dealspot/internal/domain"
)

// root is the module root, seen from this package.
var root = filepath.Join("..", "..", "..")

// TestErrorCodesListedInSchemaAndReadme fails when a code of domain.ClientCodes is
// missing from the schema's ErrorCode enum or the README's table, or either says
// anything else than the list.
func TestErrorCodesListedInSchemaAndReadme(t *testing.T) {
	schema, err := os.ReadFile(filepath.Join(root, schemaFile))
	if err != nil {
		t.Fatalf("%v: run make generate", err)
	}
	readme, err := os.ReadFile(filepath.Join(root, readmeFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range domain.ClientCodes() {
		if !strings.Contains(string(schema), "\n  "+string(c.Code)+"\n") {
			t.Errorf("%s is missing from %s", c.Code, schemaFile)
		}
		if !strings.Contains(string(readme), "| `"+string(c.Code)+"` |") {
			t.Errorf("%s is missing from the table in %s", c.Code, readmeFile)
		}
	}
	if err := run(root, true); err != nil {
		t.Error(err)
	}
}

func TestReplaceTableKeepsTheRest(t *testing.T) {
	codes := []domain.ClientCode{{Code: "A_CODE", Meaning: "a | b"}}
	in := "before\n" + readmeBegin + "\nold\n" + readmeEnd + "\nafter\n"
	out, err := ReplaceTable([]byte(in), codes)
	if err != nil {
		t.Fatal(err)
	}
	want := "before\n" + readmeBegin + "\n| `extensions.code` | when | other extensions |\n|---|---|---|\n| `A_CODE` | a \\| b |  |\n" + readmeEnd + "\nafter\n"
	if string(out) != want {
		t.Fatalf("got\n%s\nwant\n%s", out, want)
	}
	if _, err := ReplaceTable([]byte("no markers"), codes); err == nil {
		t.Fatal("a README without markers was accepted")
	}
}
