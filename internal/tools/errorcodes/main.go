// Command errorcodes writes the list of error codes a client can receive, kept in
// internal/domain (domain.ClientCodes), into the GraphQL schema (the ErrorCode enum,
// graph/schema/error_codes.graphqls) and into README.md (the table between the
// error-codes markers). `make generate` runs it before gqlgen; its test fails when
// either file differs from the list.
//
//	go run ./internal/tools/errorcodes          rewrite both files
//	go run ./internal/tools/errorcodes -check   fail when either is out of date
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/dealspot/dealspot/internal/domain"
)

// Where the list is written, relative to the module root.
const (
	schemaFile = "graph/schema/error_codes.graphqls"
	readmeFile = "README.md"
)

// The README's table sits between these two lines.
const (
	readmeBegin = "<!-- error-codes: written by `make generate` from internal/domain/codes.go; edit the list there -->"
	readmeEnd   = "<!-- /error-codes -->"
)

func main() {
	root := flag.String("root", ".", "the module root")
	check := flag.Bool("check", false, "only report whether the files are up to date")
	flag.Parse()
	if err := run(*root, *check); err != nil {
		fmt.Fprintln(os.Stderr, "errorcodes:", err)
		os.Exit(1)
	}
}

func run(root string, check bool) error {
	codes := domain.ClientCodes()
	readmePath := filepath.Join(root, readmeFile)
	readme, err := os.ReadFile(readmePath)
	if err != nil {
		return err
	}
	newReadme, err := ReplaceTable(readme, codes)
	if err != nil {
		return err
	}
	schemaPath := filepath.Join(root, schemaFile)
	newSchema := []byte(Schema(codes))
	if check {
		old, _ := os.ReadFile(schemaPath)
		var stale []string
		if !bytes.Equal(old, newSchema) {
			stale = append(stale, schemaFile)
		}
		if !bytes.Equal(readme, newReadme) {
			stale = append(stale, readmeFile)
		}
		if len(stale) > 0 {
			return fmt.Errorf("%s out of date with internal/domain/codes.go: run make generate", strings.Join(stale, " and "))
		}
		return nil
	}
	if err := os.WriteFile(schemaPath, newSchema, 0o644); err != nil {
		return err
	}
	return os.WriteFile(readmePath, newReadme, 0o644)
}

// Schema is the schema file listing codes as the ErrorCode enum.
func Schema(codes []domain.ClientCode) string {
	var b strings.Builder
	b.WriteString("# Written by `make generate` (internal/tools/errorcodes) from internal/domain/codes.go;\n")
	b.WriteString("# edit the list there, not here.\n\n")
	b.WriteString("\"\"\"\nEvery extensions.code a client can receive on a GraphQL error (or on an HTTP error\n")
	b.WriteString("answer). No field returns it: it is here so that clients can list the codes.\n\"\"\"\n")
	b.WriteString("enum ErrorCode {\n")
	for _, c := range codes {
		desc := c.Meaning
		if c.Extensions != "" {
			desc += " Extensions: " + strings.ReplaceAll(c.Extensions, "`", "") + "."
		}
		fmt.Fprintf(&b, "  %q\n  %s\n", desc, c.Code)
	}
	b.WriteString("}\n")
	return b.String()
}

// Table is the README's table of codes, markers included.
func Table(codes []domain.ClientCode) string {
	var b strings.Builder
	b.WriteString(readmeBegin + "\n")
	b.WriteString("| `extensions.code` | when | other extensions |\n|---|---|---|\n")
	cell := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	for _, c := range codes {
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", c.Code, cell(c.Meaning), cell(c.Extensions))
	}
	b.WriteString(readmeEnd + "\n")
	return b.String()
}

// ReplaceTable returns readme with the text between the markers (inclusive) replaced by
// Table(codes).
func ReplaceTable(readme []byte, codes []domain.ClientCode) ([]byte, error) {
	s := string(readme)
	i := strings.Index(s, readmeBegin)
	j := strings.Index(s, readmeEnd)
	if i < 0 || j < i {
		return nil, errors.New(readmeFile + " has no error-codes markers")
	}
	j += len(readmeEnd)
	if j < len(s) && s[j] == '\n' {
		j++
	}
	return []byte(s[:i] + Table(codes) + s[j:]), nil
}
