package graph_test

import (
	"testing"

	"github.com/dealspot/dealspot/graph"
)

// An object or a NUL byte where a scalar is expected is the client's mistake: it gets
// BAD_USER_INPUT, never INTERNAL.
func TestObjectsAndNULsInScalarsAreBadUserInput(t *testing.T) {
	t.Parallel()
	h := graph.NewTestServer(defaults)
	empty := map[string]any{}
	for _, tc := range []struct {
		name, query string
		vars        map[string]any
	}{
		{"{} literal for an ID", `{ shop(id: {}) { id } }`, nil},
		{"{} literal for a String", `{ shops(name: {}) { pageInfo { hasNextPage } } }`, nil},
		{"{} literal for an Int", `{ shops(first: {}) { pageInfo { hasNextPage } } }`, nil},
		{"{} literal for a Date", `{ uniqueVisitors(from: {}, to: "2026-11-01") }`, nil},
		{"{} literal for a Time", `mutation { updateFlashSale(input: {voucherId: "1", beginTime: {}}) { id } }`, nil},
		{"{} literal for an ID in an input", `mutation { createBlog(input: {shopId: {}, title: "t", content: "c", images: []}) { id } }`, nil},
		{"{} variable for an ID", `query($id: ID!) { shop(id: $id) { id } }`, map[string]any{"id": empty}},
		{"{} variable for a String", `query($n: String) { shops(name: $n) { pageInfo { hasNextPage } } }`, map[string]any{"n": empty}},
		{"{} variable for an Int", `query($n: Int) { shops(first: $n) { pageInfo { hasNextPage } } }`, map[string]any{"n": empty}},
		{"{} variable for a Date", `query($d: Date!) { uniqueVisitors(from: $d, to: "2026-11-01") }`, map[string]any{"d": empty}},
		{"{} variable for a Time", `mutation($t: Time) { updateFlashSale(input: {voucherId: "1", beginTime: $t}) { id } }`, map[string]any{"t": empty}},
		{"{} in an input variable", `mutation($i: CreateBlogInput!) { createBlog(input: $i) { id } }`, map[string]any{"i": map[string]any{"shopId": empty, "title": "t", "content": "c", "images": []any{}}}},
		{"{} for a directive's Boolean", `{ __typename @include(if: {}) }`, nil},
		{"{} as a variable's default", `query($id: ID = {}) { shop(id: $id) { id } }`, nil},
		{"{} for a claim's voucher", `mutation { claimVoucher(voucherId: {}) { orderId } }`, nil},
		{"[] variable for an ID", `query($id: ID!) { shop(id: $id) { id } }`, map[string]any{"id": []any{}}},
		{"NUL in a string literal", `{ shops(name: "a\u0000b") { pageInfo { hasNextPage } } }`, nil},
		{"NUL in a string variable", `query($n: String) { shops(name: $n) { pageInfo { hasNextPage } } }`, map[string]any{"n": "a\x00b"}},
		{"NUL in an ID", `query($id: ID!) { shop(id: $id) { id } }`, map[string]any{"id": "1\x00"}},
		{"NUL in an input object", `mutation($i: CreateBlogInput!) { createBlog(input: $i) { id } }`, map[string]any{"i": map[string]any{"shopId": "1", "title": "a\x00", "content": "c", "images": []any{}}}},
		{"NUL in a list", `mutation { createBlog(input: {shopId: "1", title: "t", content: "c", images: ["https://x/\u0000"]}) { id } }`, nil},
	} {
		got := post(t, h, tc.query, tc.vars)
		if got.status >= 500 || got.firstCode() != "BAD_USER_INPUT" {
			t.Errorf("%s: %d %v %.300s, want BAD_USER_INPUT", tc.name, got.status, got.codes(), got.body)
		}
	}
}
