package main

import (
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// methodsOf returns n methods on receiver recv (e.g. "*Gate"), as Go source.
func methodsOf(recv string, n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "func (x %s) M%d() {}\n", recv, i)
	}
	return b.String()
}

func TestMethodCounts(t *testing.T) {
	cases := []struct {
		name string
		dir  string
		src  string
		want map[string]int
	}{
		{name: "pointer and value receivers count alike", dir: "adapters/redis",
			src:  "type Gate struct{}\n" + methodsOf("*Gate", 2) + "func (Gate) v() {}\n",
			want: map[string]int{"adapters/redis.Gate": 3}},
		{name: "exported and unexported count alike", dir: "internal/service",
			src:  "type Node struct{}\nfunc (s *Node) Close() error { return nil }\nfunc (s *Node) start() {}\n",
			want: map[string]int{"internal/service.Node": 2}},
		{name: "generic receivers count under their type", dir: "internal/readcache",
			src:  "type Client[V any] struct{}\ntype pair[K, V any] struct{}\nfunc (c *Client[V]) Get() {}\nfunc (c Client[_]) n() {}\nfunc (p *pair[K, V]) key() {}\n",
			want: map[string]int{"internal/readcache.Client": 2, "internal/readcache.pair": 1}},
		{name: "functions are not methods", dir: "internal/service",
			src:  "type Node struct{}\nfunc New() *Node { return nil }\nfunc start(n *Node) {}\n",
			want: map[string]int{}},
		{name: "types of one name in two packages are two types", dir: "adapters/entstore",
			src:  "type Store struct{}\nfunc (s *Store) Close() error { return nil }\n",
			want: map[string]int{"adapters/entstore.Store": 1}},
		{name: "gqlgen's resolvers are left out", dir: "graph",
			src:  "type Resolver struct{}\ntype queryResolver struct{ *Resolver }\ntype mutationResolver struct{ *Resolver }\n" + methodsOf("*queryResolver", 30) + methodsOf("*mutationResolver", 40) + "func (r *Resolver) Query() {}\n",
			want: map[string]int{}},
		{name: "graph's other types count", dir: "graph",
			src:  "type loaders struct{}\n" + methodsOf("*loaders", 3),
			want: map[string]int{"graph.loaders": 3}},
		{name: "a type named like a resolver outside graph counts", dir: "internal/app/shop",
			src:  "type nameResolver struct{}\n" + methodsOf("nameResolver", 2),
			want: map[string]int{"internal/app/shop.nameResolver": 2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := parser.ParseFile(token.NewFileSet(), "x.go", "package x\n"+c.src, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]int{}
			addMethods(got, c.dir, f)
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("counts %v, want %v", got, c.want)
			}
		})
	}
}

func TestMethodVerdicts(t *testing.T) {
	cases := []struct {
		name    string
		typ     string
		methods int
		refused bool
	}{
		{name: "a type at the cap", typ: "internal/readcache.Client", methods: maxMethods},
		{name: "a type over the cap", typ: "adapters/entstore.Store", methods: maxMethods + 1, refused: true},
		{name: "the node at its tighter cap", typ: "internal/service.Node", methods: 15},
		{name: "the node over its tighter cap", typ: "internal/service.Node", methods: 16, refused: true},
		{name: "another package's Node has the general cap", typ: "internal/server.Node", methods: 16},
		{name: "the gate at its tighter cap", typ: "adapters/redis.Gate", methods: 15},
		{name: "the gate over its tighter cap", typ: "adapters/redis.Gate", methods: 16, refused: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			counts := map[string]int{c.typ: c.methods}
			for _, e := range temporaryMethods {
				if e.typ != c.typ {
					counts[e.typ] = e.allow // keep the other exceptions excusing something
				}
			}
			refused := slices.ContainsFunc(methodProblems(counts), func(p string) bool { return strings.HasPrefix(p, c.typ+" ") })
			if refused != c.refused {
				t.Errorf("%s with %d methods: refused %v, want %v (%q)", c.typ, c.methods, refused, c.refused, methodProblems(counts))
			}
		})
	}
}

// The temporary exceptions each raise a cap, and an exception that excuses nothing (its
// type split, or gone) is reported so that it is removed.
func TestTemporaryMethodExceptions(t *testing.T) {
	for _, e := range temporaryMethods {
		if limit, exc := methodLimit(e.typ); exc == nil || exc.allow <= limit {
			t.Errorf("%s: exception %+v does not raise its cap of %d", e.typ, exc, limit)
		}
		if e.why == "" {
			t.Errorf("%s: exception without a reason", e.typ)
		}
	}
	saved := temporaryMethods
	t.Cleanup(func() { temporaryMethods = saved })
	temporaryMethods = []methodException{{typ: "internal/service.Node", allow: 30, why: "example"}}
	if p := methodProblems(map[string]int{"internal/service.Node": 25}); len(p) != 0 {
		t.Errorf("a type within its exception refused: %q", p)
	}
	p := methodProblems(map[string]int{"internal/service.Node": 12})
	if len(p) != 1 || !strings.Contains(p[0], "remove its exception") {
		t.Errorf("an exception excusing nothing: problems %q, want one saying to remove it", p)
	}
	temporaryMethods = nil
	if p := methodProblems(map[string]int{"internal/service.Node": 25}); len(p) != 1 {
		t.Errorf("with no exception, a node of 25 methods: problems %q, want one", p)
	}
}

// countMethods reads the tree, leaving out tests, generated code and hidden directories.
func TestCountMethodsSkips(t *testing.T) {
	root := t.TempDir()
	many := "type T struct{}\n" + methodsOf("*T", 3)
	files := map[string]string{
		"internal/app/x/x.go":           "package x\n" + many,
		"internal/app/x/more.go":        "package x\nfunc (t T) more() {}\n",
		"internal/app/x/x_test.go":      "package x\nfunc (t *T) helper() {}\n",
		"internal/app/x/gen.go":         "// Code generated by a tool. DO NOT EDIT.\n\npackage x\nfunc (t *T) generated() {}\n",
		"ent/client.go":                 "package ent\n" + many,
		"graph/generated/root.go":       "package generated\n" + many,
		"graph/model/models_gen.go":     "package model\n" + many,
		"graph/model/model.go":          "package model\ntype U struct{}\nfunc (U) M() {}\n",
		".git/x.go":                     "package x\n" + many,
		"internal/app/x/testdata/t.go":  "package t\n" + many,
		"web/node_modules/pkg/p.go":     "package p\n" + many,
		"internal/app/x/notes.txt":      "func (t *T) no() {}\n",
		"adapters/entstore/entstore.go": "package entstore\ntype Store struct{}\nfunc (s *Store) Close() error { return nil }\n",
	}
	for name, src := range files {
		path := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := countMethods(root)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"internal/app/x.T": 4, "graph/model.U": 1, "adapters/entstore.Store": 1}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("counts %v, want %v", got, want)
	}
}
