package graph_test

import (
	"encoding/json"
	"testing"

	"github.com/dealspot/dealspot/graph"
)

func TestOutOfRangeLiteralsAreBadUserInput(t *testing.T) {
	t.Parallel()
	h := graph.NewTestServer(defaults)
	for name, doc := range map[string]string{
		"float past float64 for a Date":  `{ uniqueVisitors(from: 1e309, to: "2026-11-01") }`,
		"float for a Date":               `{ uniqueVisitors(from: 1.5, to: "2026-11-01") }`,
		"int past int64 for a Date":      `{ uniqueVisitors(from: 99999999999999999999, to: "2026-11-01") }`,
		"int past int64":                 `{ shops(first: 99999999999999999999) { pageInfo { hasNextPage } } }`,
		"float past float64 for a Float": `{ nearbyShops(typeId: "1", longitude: 1e309, latitude: 30) { pageInfo { hasNextPage } } }`,
		"float past float64 for a Time":  `mutation { updateFlashSale(input: {voucherId: "1", beginTime: 1e309}) { id } }`,
		"object for a Date":              `{ uniqueVisitors(from: {a: 1}, to: "2026-11-01") }`,
		"list for a Date":                `{ uniqueVisitors(from: ["2026-11-01"], to: "2026-11-01") }`,
		"object for an ID":               `{ shop(id: {a: 1}) { id } }`,
		"float past float64 for an ID":   `{ shop(id: 1e400) { id } }`,
		"nested in an input object":      `mutation { createVoucher(input: {shopId: 1e999, title: "t", payValue: 1, actualValue: 2}) { id } }`,
	} {
		got := post(t, h, doc, nil)
		if got.status >= 500 {
			t.Errorf("%s: status %d %.300s", name, got.status, got.body)
			continue
		}
		if c := got.firstCode(); c != "BAD_USER_INPUT" && c != "GRAPHQL_VALIDATION_FAILED" {
			t.Errorf("%s: codes %v %.300s, want BAD_USER_INPUT or GRAPHQL_VALIDATION_FAILED", name, got.codes(), got.body)
		}
	}
	// The same numbers as variables.
	for name, v := range map[string]any{"Date": json.Number("1e309"), "Date from an object": map[string]any{"a": 1}} {
		got := post(t, h, `query($d: Date!) { uniqueVisitors(from: $d, to: "2026-11-01") }`, map[string]any{"d": v})
		if got.status >= 500 || got.firstCode() != "BAD_USER_INPUT" && got.firstCode() != "GRAPHQL_VALIDATION_FAILED" {
			t.Errorf("variable %s: %d %v %.300s", name, got.status, got.codes(), got.body)
		}
	}
}
