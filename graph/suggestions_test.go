package graph_test

import (
	"strings"
	"testing"

	"github.com/dealspot/dealspot/graph"
)

// Outside dev mode no error may name other parts of the schema: "Did you mean" lists
// the names close to what was typed.
func TestProductionErrorsSuggestNoNames(t *testing.T) {
	t.Parallel()
	prod := defaults
	prod.Introspection, prod.Suggestions = false, false
	dev := defaults
	dev.Introspection, dev.Suggestions = true, true
	hProd, hDev := graph.NewTestServer(prod), graph.NewTestServer(dev)
	for _, tc := range []struct {
		kind, query string
		vars        map[string]any
	}{
		{"field", `{ shopz { id } }`, nil},
		{"argument", `{ shop(idd: "1") { id } }`, nil},
		{"directive argument", `{ __typename @include(iff: true) }`, nil},
		{"enum value", `{ comments(blogId: "1", order: OLDEST_FIRS) { pageInfo { hasNextPage } } }`, nil},
		{"enum value as a string", `{ comments(blogId: "1", order: "OLDEST_FIRST") { pageInfo { hasNextPage } } }`, nil},
		{"enum value from a variable", `query($o: CommentOrder) { comments(blogId: "1", order: $o) { pageInfo { hasNextPage } } }`, map[string]any{"o": "OLDEST_FIRS"}},
		{"type", `query($o: CommentOrde) { comments(blogId: "1", order: $o) { pageInfo { hasNextPage } } }`, nil},
		{"type of a fragment", `{ ...F } fragment F on Quer { __typename }`, nil},
		{"input field", `mutation { updateProfile(input: {nickNam: "x"}) { id } }`, nil},
		{"input field from a variable", `mutation($i: UpdateProfileInput!) { updateProfile(input: $i) { id } }`, map[string]any{"i": map[string]any{"nickNam": "x"}}},
		{"directive", `{ __typename @inclde(if: true) }`, nil},
	} {
		got := post(t, hProd, tc.query, tc.vars)
		if len(got.Errors) == 0 || got.status >= 500 {
			t.Errorf("%s: %d %.300s, want an error", tc.kind, got.status, got.body)
		}
		if strings.Contains(got.body, "Did you mean") {
			t.Errorf("%s: production suggests: %.300s", tc.kind, got.body)
		}
		if dev := post(t, hDev, tc.query, tc.vars); len(dev.Errors) == 0 {
			t.Errorf("%s: dev mode accepts it: %.300s", tc.kind, dev.body)
		}
	}
}
