package graph_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dealspot/dealspot/graph"
)

func TestRepeatedFieldsAreAnsweredWithACode(t *testing.T) {
	t.Parallel()
	h := graph.NewTestServer(defaults)
	var pairs strings.Builder
	pairs.WriteString("{")
	for i := range 1400 {
		fmt.Fprintf(&pairs, " ...F%d", i)
	}
	pairs.WriteString(" }\n")
	for i := range 1400 {
		fmt.Fprintf(&pairs, "fragment F%d on Query { __typename }\n", i)
	}
	// Each pair of fields sharing a response name was compared: these took 2.5 s to 5 s
	// each before they were refused. The largest costs about 60 ms now on a machine under
	// heavy load (BenchmarkPreExecution); the guard is for a hang, far above that.
	for _, tc := range []struct{ name, doc, code string }{
		{"5,900 __typename", "{" + strings.Repeat(" __typename", 5900) + "}", graph.CodeComplexityLimit},
		// Now refused before parsing, past GRAPHQL_MAX_FRAGMENTS.
		{"1,400 fragments of __typename", pairs.String(), "GRAPHQL_VALIDATION_FAILED"},
		{"14,998 unknown fields", "{" + strings.Repeat(" a", 14998) + "}", "GRAPHQL_VALIDATION_FAILED"},
	} {
		if got := postWithin(t, h, tc.doc, nil, 2*time.Second); got.firstCode() != tc.code {
			t.Errorf("%s: codes %v (%.300s), want %s", tc.name, got.codes(), got.body, tc.code)
		}
	}
}

func TestConflictingFieldsAreRefused(t *testing.T) {
	t.Parallel()
	h := graph.NewTestServer(defaults)
	cases := map[string]string{
		"different arguments":       `{ s: shop(id: "1") { id } s: shop(id: "2") { id } }`,
		"different fields":          `{ s: shopTypes { id } s: shops { pageInfo { hasNextPage } } }`,
		"through a fragment":        `{ shop(id: "1") { n: name ...F } } fragment F on Shop { n: address }`,
		"nested under merged field": `{ shop(id: "1") { id x: name } shop(id: "1") { x: area } }`,
		"inline fragment":           `{ shop(id: "1") { x: name ... on Shop { x: area } } }`,
		"argument missing":          `{ a: shops(first: 2) { pageInfo { hasNextPage } } a: shops { pageInfo { hasNextPage } } }`,
	}
	for name, doc := range cases {
		got := post(t, h, doc, nil)
		if got.firstCode() != "GRAPHQL_VALIDATION_FAILED" || !strings.Contains(got.Errors[0].Message, "conflict") {
			t.Errorf("%s: %v %.300s, want a conflict (GRAPHQL_VALIDATION_FAILED)", name, got.codes(), got.body)
		}
	}
	for name, doc := range map[string]string{
		"same field twice":      `{ shop(id: "1") { id name } shop(id: "1") { id area } }`,
		"same through fragment": `{ shop(id: "1") { id ...F } } fragment F on Shop { id name }`,
		"arguments reordered":   `{ a: shops(first: 2, name: "x") { pageInfo { hasNextPage } } a: shops(name: "x", first: 2) { pageInfo { hasNextPage } } }`,
	} {
		if got := post(t, h, doc, nil); got.firstCode() == "GRAPHQL_VALIDATION_FAILED" {
			t.Errorf("%s: refused as invalid: %.300s", name, got.body)
		}
	}
}

func TestDocumentsAreBoundedInTokens(t *testing.T) {
	t.Parallel()
	o := defaults
	o.MaxTokens = 100
	h := graph.NewTestServer(o)
	small := "{ shopTypes {" + strings.Repeat(" id", 90) + " } }"
	if got := post(t, h, small, nil); got.firstCode() == "GRAPHQL_PARSE_FAILED" {
		t.Fatalf("95 tokens refused: %.300s", got.body)
	}
	big := "{ shopTypes {" + strings.Repeat(" id", 100) + " } }"
	got := post(t, h, big, nil)
	if got.firstCode() != "GRAPHQL_PARSE_FAILED" || !strings.Contains(got.Errors[0].Message, "token limit") {
		t.Fatalf("105 tokens: %v %.300s, want GRAPHQL_PARSE_FAILED (token limit)", got.codes(), got.body)
	}
}

func TestValidationErrorsAreCapped(t *testing.T) {
	t.Parallel()
	h := graph.NewTestServer(defaults)
	got := post(t, h, "{"+strings.Repeat(" nope", 500)+" }", nil)
	if got.firstCode() != "GRAPHQL_VALIDATION_FAILED" || len(got.Errors) > 20 {
		t.Fatalf("500 unknown fields: %d errors %v, want GRAPHQL_VALIDATION_FAILED and at most 20", len(got.Errors), got.codes()[:min(3, len(got.codes()))])
	}
}

func TestConflictsBehindFragmentChainsAreNotSkipped(t *testing.T) {
	t.Parallel()
	h := graph.NewTestServer(defaults)
	// Few fields behind long chains of fragments: the conflict must still be found, or
	// the document refused as too large to check.
	nest := strings.Repeat("... on Query { ", 990)
	doc := `{ ` + nest + `s: shop(id: "1") { id } s: shop(id: "2") { id }` + strings.Repeat(" }", 990) + ` }`
	if got := post(t, h, doc, nil); got.firstCode() != "GRAPHQL_VALIDATION_FAILED" {
		t.Fatalf("codes %v %.300s, want GRAPHQL_VALIDATION_FAILED", got.codes(), got.body)
	}
	chain := `{ ...F0 ...F0 ...F0 ...F0 ...F0 ...F0 } fragment F1699 on Query { s: shop(id: "1") { id } s: shop(id: "2") { id } }`
	for i := range 1699 {
		chain += fmt.Sprintf(" fragment F%d on Query { ...F%d }", i, i+1)
	}
	if got := post(t, h, chain, nil); got.firstCode() != "GRAPHQL_VALIDATION_FAILED" {
		t.Fatalf("chain: codes %v %.300s, want GRAPHQL_VALIDATION_FAILED", got.codes(), got.body)
	}
}

// Fields of one response name on the members of a union (a favourite's target) follow
// the spec: on two member types they may be different fields when they answer in the
// same shape (the client reads one or the other), never two shapes; on one member type
// they must be the same field; and a document of thousands of them is still checked in
// linear time.
func TestUnionMembersFieldsMergeByNameArgumentsAndType(t *testing.T) {
	t.Parallel()
	h := graph.NewTestServer(defaults)
	const wrap = `{ myFavorites { edges { node { target { %s } } } } }`
	for name, sel := range map[string]string{
		"different types":        `... on Shop { x: favoriteCount } ... on Voucher { x: favoritedByMe }`,
		"two scalars":            `... on Shop { x: name } ... on Voucher { x: payValue }`,
		"nullable and not":       `... on Shop { x: favoriteCount } ... on Voucher { x: stock }`,
		"one member, two fields": `... on Shop { x: name } ... on Voucher { x: title } ... on Shop { x: address }`,
		"one member, deeper":     `... on Voucher { s: shop { x: name } } ... on Shop { t: owner { id } } ... on Voucher { s: shop { x: address } }`,
	} {
		if got := post(t, h, fmt.Sprintf(wrap, sel), nil); got.firstCode() != "GRAPHQL_VALIDATION_FAILED" {
			t.Errorf("%s: %v %.300s, want a conflict (GRAPHQL_VALIDATION_FAILED)", name, got.codes(), got.body)
		}
	}
	for name, sel := range map[string]string{
		"different fields, one shape": `... on Shop { x: name } ... on Voucher { x: title }`,
		"different numbers":           `... on Shop { x: favoriteCount } ... on Voucher { x: payValue }`,
		"one member, the same field":  `... on Shop { x: name } ... on Voucher { x: title } ... on Shop { x: name }`,
	} {
		if got := post(t, h, fmt.Sprintf(wrap, sel), nil); got.firstCode() == "GRAPHQL_VALIDATION_FAILED" {
			t.Errorf("%s: refused: %.300s", name, got.body)
		}
	}
	same := `__typename ... on Shop { id favoritedByMe } ... on Voucher { id favoritedByMe shop { id } }`
	if got := post(t, h, fmt.Sprintf(wrap, same), nil); got.firstCode() == "GRAPHQL_VALIDATION_FAILED" {
		t.Errorf("the same fields on both members refused: %.300s", got.body)
	}
	many := strings.Repeat(" ... on Shop { id } ... on Voucher { id }", 1000)
	if got := postWithin(t, h, fmt.Sprintf(wrap, many), nil, 2*time.Second); got.firstCode() == "GRAPHQL_VALIDATION_FAILED" {
		t.Errorf("2,000 ids on both members: %v %.300s", got.codes(), got.body)
	}
}
