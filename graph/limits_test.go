package graph_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/dealspot/dealspot/graph"
)

// defaults are the limits Dealspot runs with unless configured otherwise.
var defaults = graph.Options{
	MaxDepth: 12, MaxComplexity: 1000, MaxAliases: 30, ExecTimeout: 10 * time.Second,
	QueryCacheSize: 100, MaxTokens: 15000, PageSize: 10, MaxPageSize: 100, MaxBodyBytes: 64 << 10,
	MaxStringChars: 10000, MaxFragments: 100, MaxSpreadTokens: 100_000,
}

type answer struct {
	status int
	Errors []struct {
		Message    string         `json:"message"`
		Extensions map[string]any `json:"extensions"`
	} `json:"errors"`
	body string
}

func (a answer) codes() []string {
	var out []string
	for _, e := range a.Errors {
		c, _ := e.Extensions["code"].(string)
		out = append(out, c)
	}
	return out
}

func (a answer) firstCode() string {
	if c := a.codes(); len(c) > 0 {
		return c[0]
	}
	return ""
}

// post sends one operation. A document that hangs the server (the defects these tests
// guard against took seconds to minutes) fails the test after hangAfter instead of
// stalling the run; this is a guard against a hang, not a measure of speed.
func post(t testing.TB, h http.Handler, query string, vars map[string]any) answer {
	t.Helper()
	return postWithin(t, h, query, vars, hangAfter)
}

// postWithin is post with another hang guard.
func postWithin(t testing.TB, h http.Handler, query string, vars map[string]any, hangAfter time.Duration) answer {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	return serveWithin(t, h, req, hangAfter)
}

const hangAfter = 10 * time.Second

func serve(t testing.TB, h http.Handler, req *http.Request) answer {
	t.Helper()
	return serveWithin(t, h, req, hangAfter)
}

func serveWithin(t testing.TB, h http.Handler, req *http.Request, hangAfter time.Duration) answer {
	t.Helper()
	rec := httptest.NewRecorder()
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.ServeHTTP(rec, req)
	}()
	select {
	case <-done:
	case <-time.After(hangAfter):
		t.Fatalf("no answer after %v", hangAfter)
	}
	a := answer{status: rec.Code, body: rec.Body.String()}
	if err := json.Unmarshal(rec.Body.Bytes(), &a); err != nil {
		t.Fatalf("answer is not JSON (%d): %.300s", rec.Code, rec.Body.String())
	}
	return a
}

// nestedFragments is the fan-out document of issue 11: fragment F_i spreads F_{i+1}
// twice, levels deep, so that it expands to 2^levels fields.
func nestedFragments(levels int) string {
	var b strings.Builder
	b.WriteString("{ shopTypes { ...F0 } }\n")
	for i := 0; i < levels; i++ {
		fmt.Fprintf(&b, "fragment F%d on ShopType { id ...F%d ...F%d }\n", i, i+1, i+1)
	}
	fmt.Fprintf(&b, "fragment F%d on ShopType { id }\n", levels)
	return b.String()
}

func TestFragmentFanOutIsRefusedWithACode(t *testing.T) {
	t.Parallel()
	h := graph.NewTestServer(defaults)
	doc := nestedFragments(26)
	if len(doc) > 1500 {
		t.Fatalf("document is %d bytes, want about 1 KB", len(doc))
	}
	if got := post(t, h, doc, nil); got.firstCode() != graph.CodeComplexityLimit {
		t.Fatalf("codes %v (%.300s), want %s", got.codes(), got.body, graph.CodeComplexityLimit)
	}
	// The same nest under an alias-heavy or deep shape is refused for that instead.
	deep := "{ shopTypes { ...F0 } }\nfragment F0 on ShopType { a: id ...F1 ...F1 }\n"
	for i := 1; i < 25; i++ {
		deep += fmt.Sprintf("fragment F%d on ShopType { a%d: id ...F%d ...F%d }\n", i, i, i+1, i+1)
	}
	deep += "fragment F25 on ShopType { id }\n"
	if got := post(t, h, deep, nil); got.firstCode() != graph.CodeAliasLimit {
		t.Fatalf("aliased nest: codes %v (%.300s), want %s", got.codes(), got.body, graph.CodeAliasLimit)
	}
}

func TestBrokenFragmentsAreValidationErrors(t *testing.T) {
	t.Parallel()
	h := graph.NewTestServer(defaults)
	for name, doc := range map[string]string{
		"cycle":          "{ shopTypes { ...A } } fragment A on ShopType { id ...B } fragment B on ShopType { ...A }",
		"self":           "{ shopTypes { ...A } } fragment A on ShopType { id ...A ...A }",
		"unknown":        "{ shopTypes { ...Nope } }",
		"unknown nested": "{ shopTypes { ...A } } fragment A on ShopType { id ...Nope ...Nope }",
	} {
		if got := post(t, h, doc, nil); got.firstCode() != "GRAPHQL_VALIDATION_FAILED" {
			t.Errorf("%s: codes %v (%.300s), want GRAPHQL_VALIDATION_FAILED", name, got.codes(), got.body)
		}
	}
}

func TestMeasureCountsEachFragmentOnce(t *testing.T) {
	t.Parallel()
	depth, aliases, complexity, err := graph.Measure(nestedFragments(26), nil, 10, 100)
	if err != nil {
		t.Fatal(err)
	}
	// shopTypes (1) + 2^27-1 ids in the nest; one level for shopTypes, one for id.
	if depth != 2 || aliases != 0 || complexity != 1<<27 {
		t.Fatalf("depth %d aliases %d complexity %d, want 2, 0, %d", depth, aliases, complexity, 1<<27)
	}
}
