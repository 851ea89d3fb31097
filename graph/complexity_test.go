package graph_test

import (
	"strings"
	"testing"

	"github.com/dealspot/dealspot/graph"
)

func TestComplexityMultipliesByPageSize(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		query string
		vars  map[string]any
		want  int64
	}{
		{"plain fields", `{ shopTypes { id name } }`, nil, 3},
		// 1 (hotBlogs) + pageInfo 2 + 100 × (edges 1 + node 1 + id 1)
		{"connection with first", `{ hotBlogs(first: 100) { edges { node { id } } pageInfo { hasNextPage } } }`, nil, 303},
		{"connection from a variable", `query($n: Int) { hotBlogs(first: $n) { edges { node { id } } } }`, map[string]any{"n": int64(50)}, 151},
		{"connection without first takes the default page", `{ hotBlogs { edges { node { id } } } }`, nil, 31},
		{"first past the largest page counts as the largest", `{ hotBlogs(first: 100000) { edges { node { id } } } }`, nil, 301},
		// a list with first: 20 × (1 + id)
		{"list with first", `{ blogLikers(blogId: "1", first: 20) { id } }`, nil, 40},
		// an edge to a list without first counts a default page: 1 + 20 × (edges 1 + node 1 + vouchers (1 + 10 × title))
		{"edge list without first", `{ shops(first: 20) { edges { node { vouchers { title } } } } }`, nil, 1 + 20*(1+1+(1+10*1))},
		// a list of values counts its selection once: 1 + 20 × (edges 1 + node 1 + images (1 + url, width, height))
		{"list of images", `{ shops(first: 20) { edges { node { images { url width height } } } } }`, nil, 1 + 20*(1+1+(1+3))},
		// introspection's lists are the schema's own: each counts once
		{"introspection", `{ __schema { types { name fields { name args { name } type { name ofType { name } } } } } }`, nil, 11},
		{"fragment under a connection", `{ shops(first: 5) { ...C } } fragment C on ShopConnection { edges { node { id name } } pageInfo { endCursor } }`, nil, 1 + 2 + 5*4},
	}
	for _, tc := range cases {
		_, _, got, err := graph.Measure(tc.query, tc.vars, 10, 100)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got != tc.want {
			t.Errorf("%s: complexity %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestThirtyFullPagesOfBlogsAreRefused(t *testing.T) {
	t.Parallel()
	h := graph.NewTestServer(defaults)
	one := `hotBlogs(first: 100) { edges { node { author { id } shop { id } } } }`
	var b strings.Builder
	b.WriteString("{")
	for i := range 30 {
		b.WriteString(" b")
		b.WriteString(string(rune('a'+i%26)) + string(rune('a'+i/26)))
		b.WriteString(": " + one)
	}
	b.WriteString(" }")
	if got := post(t, h, b.String(), nil); got.firstCode() != graph.CodeComplexityLimit {
		t.Fatalf("30 × hotBlogs(first: 100): codes %v %.300s, want %s", got.codes(), got.body, graph.CodeComplexityLimit)
	}
	vars := map[string]any{"n": 100}
	if got := post(t, h, `query($n: Int) { a: hotBlogs(first: $n) { edges { node { author { id } shop { id } } } } b: hotBlogs(first: $n) { edges { node { author { id } shop { id } } } } }`, vars); got.firstCode() != graph.CodeComplexityLimit {
		t.Fatalf("2 × hotBlogs(first: $n = 100): codes %v %.300s, want %s", got.codes(), got.body, graph.CodeComplexityLimit)
	}
	// A screen's page of blog cards is within the budget (12 fields × 20 cards).
	if got := post(t, h, `{ hotBlogs(first: 20) { edges { cursor node { id title likedCount author { id nickName } shop { id name } } } pageInfo { hasNextPage endCursor } } }`, nil); got.firstCode() == graph.CodeComplexityLimit {
		t.Fatalf("one page refused: %.300s", got.body)
	}
}
