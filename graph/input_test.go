package graph_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/dealspot/dealspot/graph"
)

func TestBadInputIsBadUserInput(t *testing.T) {
	t.Parallel()
	h := graph.NewTestServer(defaults)
	for _, tc := range []struct {
		name, query string
		vars        map[string]any
	}{
		{"bad Time string", `mutation { updateFlashSale(input: {voucherId: "1", beginTime: "tomorrow"}) { id } }`, nil},
		{"bad Time variable", `mutation($t: Time) { updateFlashSale(input: {voucherId: "1", beginTime: $t}) { id } }`, map[string]any{"t": "2026-13-45"}},
		{"object for a Time", `mutation($t: Time) { updateFlashSale(input: {voucherId: "1", beginTime: $t}) { id } }`, map[string]any{"t": map[string]any{"a": 1}}},
		{"object literal for a Time", `mutation { updateFlashSale(input: {voucherId: "1", endTime: {at: "2026-11-01T00:00:00Z"}}) { id } }`, nil},
		{"list literal for a Date", `{ uniqueVisitors(from: ["2026-11-01"], to: "2026-11-02") }`, nil},
		{"number for a Time", `mutation($t: Time) { updateFlashSale(input: {voucherId: "1", beginTime: $t}) { id } }`, map[string]any{"t": 12}},
		{"bad Date string", `{ uniqueVisitors(from: "2026-02-30", to: "2026-11-01") }`, nil},
		{"object for a Date", `query($d: Date!) { uniqueVisitors(from: $d, to: "2026-11-01") }`, map[string]any{"d": map[string]any{"a": 1}}},
		{"60 KB name pattern", `{ shops(name: "` + strings.Repeat("%_", 30000) + `") { pageInfo { hasNextPage } } }`, nil},
		{"60 KB name variable", `query($n: String) { shops(name: $n) { pageInfo { hasNextPage } } }`, map[string]any{"n": strings.Repeat("%_", 30000)}},
		{"first: 0", `{ shops(first: 0) { edges { node { id } } } }`, nil},
		{"first: 0 from a variable", `query($n: Int) { hotBlogs(first: $n) { edges { node { id } } } }`, map[string]any{"n": 0}},
		{"first negative", `{ blogLikers(blogId: "1", first: -1) { id } }`, nil},
	} {
		got := post(t, h, tc.query, tc.vars)
		if got.status >= 500 || got.firstCode() != "BAD_USER_INPUT" {
			t.Errorf("%s: %d %v %.300s, want BAD_USER_INPUT", tc.name, got.status, got.codes(), got.body)
		}
	}
}

func TestTransportErrorsCarryACodeAndNoEcho(t *testing.T) {
	t.Parallel()
	h := graph.NewTestServer(defaults)
	secret := "SECRET-" + strings.Repeat("x", 20)
	for _, tc := range []struct {
		name, method, contentType, body, query string
	}{
		{"undecodable JSON", http.MethodPost, "application/json", `{"query": "` + secret, ""},
		{"JSON of the wrong shape", http.MethodPost, "application/json", `{"query": ["` + secret + `"]}`, ""},
		{"unsupported content type", http.MethodPost, "text/plain", `{"query":"{ __typename }","x":"` + secret + `"}`, ""},
		{"unsupported method", http.MethodPut, "application/json", `{"query":"{ __typename }","x":"` + secret + `"}`, ""},
		{"mutation over GET", http.MethodGet, "", "", "query=" + url.QueryEscape(`mutation { logout } # `+secret)},
		{"bad GET variables", http.MethodGet, "", "", "query=" + url.QueryEscape(`{ __typename }`) + "&variables=" + url.QueryEscape(`{"`+secret)},
		{"persisted-query hash that does not match", http.MethodPost, "application/json",
			`{"query":"{ __typename }","extensions":{"persistedQuery":{"version":1,"sha256Hash":"` + secret + `"}}}`, ""},
	} {
		req := httptest.NewRequest(tc.method, "/graphql?"+tc.query, strings.NewReader(tc.body))
		if tc.contentType != "" {
			req.Header.Set("Content-Type", tc.contentType)
		}
		got := serve(t, h, req)
		if len(got.Errors) == 0 || got.firstCode() == "" || got.firstCode() == "INTERNAL" {
			t.Errorf("%s: %d %.300s, want a coded client error", tc.name, got.status, got.body)
		}
		if got.status >= 500 {
			t.Errorf("%s: status %d", tc.name, got.status)
		}
		if strings.Contains(got.body, secret) {
			t.Errorf("%s: the answer echoes the request: %.300s", tc.name, got.body)
		}
	}
}

func TestProductionValidationNeitherIntrospectsNorSuggests(t *testing.T) {
	t.Parallel()
	prod := defaults
	prod.Introspection, prod.Suggestions = false, false
	h := graph.NewTestServer(prod)
	for _, q := range []string{`{ __schema { types { name } } }`, `{ __type(name: "Shop") { name } }`} {
		if got := post(t, h, q, nil); got.firstCode() != "GRAPHQL_VALIDATION_FAILED" || !strings.Contains(got.Errors[0].Message, "Introspection") {
			t.Errorf("%s: %v %.300s, want a coded refusal", q, got.codes(), got.body)
		}
	}
	if got := post(t, h, `{ __typename }`, nil); len(got.Errors) > 0 {
		t.Errorf("__typename refused: %.300s", got.body)
	}
	for _, q := range []string{`{ shopz { id } }`, `{ shops { edges { node { nam } } } }`, `{ shop(id: "1") }`} {
		got := post(t, h, q, nil)
		if got.firstCode() != "GRAPHQL_VALIDATION_FAILED" || strings.Contains(got.body, "Did you mean") {
			t.Errorf("%s: %v %.300s, want a refusal without suggestions", q, got.codes(), got.body)
		}
	}
	dev := defaults
	dev.Introspection, dev.Suggestions = true, true
	h = graph.NewTestServer(dev)
	if got := post(t, h, `{ shopz { id } }`, nil); !strings.Contains(got.body, "Did you mean") {
		t.Errorf("dev mode should suggest: %.300s", got.body)
	}
	if got := post(t, h, `{ __schema { queryType { name } } }`, nil); len(got.Errors) > 0 {
		t.Errorf("dev mode should introspect: %.300s", got.body)
	}
}

func TestCodedErrorBodyKeepsTheAnswerAndCutsTheEcho(t *testing.T) {
	t.Parallel()
	got := string(graph.CodedErrorBody([]byte(`{"errors":[{"message":"could not be decoded body:{\"secret\"}","locations":[{"line":1,"column":2}]},{"message":"y","extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}],"data":null,"extensions":{"a":1}}`)))
	for _, want := range []string{`"message":"could not be decoded"`, `"code":"BAD_REQUEST"`, `"code":"GRAPHQL_VALIDATION_FAILED"`, `"extensions":{"a":1}`, `"data":null`, `"locations":[{"column":2,"line":1}]`} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %s in %s", want, got)
		}
	}
	if strings.Contains(got, "secret") {
		t.Errorf("echo kept: %s", got)
	}
	if got := string(graph.CodedErrorBody([]byte("not json"))); !strings.Contains(got, `"code":"BAD_REQUEST"`) {
		t.Errorf("non-JSON error answer: %s", got)
	}
}
