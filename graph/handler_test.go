package graph_test

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/dealspot/dealspot/graph"
)

// multipartRequest is a GraphQL multipart request: operations, a map, and one file when
// mapping is not empty.
func multipartRequest(operations, mapping string, preflight bool) *http.Request {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	_ = mw.WriteField("operations", operations)
	_ = mw.WriteField("map", mapping)
	if mapping != "{}" {
		fw, _ := mw.CreateFormFile("0", "a.png")
		_, _ = fw.Write([]byte("not really a png"))
	}
	_ = mw.Close()
	req := httptest.NewRequest(http.MethodPost, "/graphql", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	if preflight {
		req.Header.Set("GraphQL-Require-Preflight", "1")
	}
	return req
}

func uploadServer() http.Handler {
	opts := defaults
	opts.MaxUploadBytes = 1 << 20
	return graph.NewTestServer(opts)
}

// A form on another site can post multipart/form-data without a preflight: such a
// request is taken only with a header no form can set, and only for an operation that
// uploads a file.
func TestMultipartNeedsPreflightAndAnUpload(t *testing.T) {
	t.Parallel()
	h := uploadServer()
	const login = `{"query":"mutation { sendLoginCode(phone: \"13800138000\") { sent } }"}`
	for name, req := range map[string]*http.Request{
		"no preflight header":                multipartRequest(login, "{}", false),
		"no preflight header, with upload":   multipartRequest(`{"query":"mutation($f: Upload!) { uploadImage(file: $f) { url } }","variables":{"f":null}}`, `{"0":["variables.f"]}`, false),
		"preflight, no upload":               multipartRequest(login, "{}", true),
		"preflight, a file beside no Upload": multipartRequest(`{"query":"mutation($f: String!) { sendLoginCode(phone: $f) { sent } }","variables":{"f":null}}`, `{"0":["variables.f"]}`, true),
		"preflight, a query":                 multipartRequest(`{"query":"{ __typename }"}`, "{}", true),
	} {
		got := serve(t, h, req)
		if name == "preflight, a file beside no Upload" && got.firstCode() == "BAD_USER_INPUT" && !strings.Contains(got.body, "sent") {
			continue // a file is no String: the variable is refused as it is read
		}
		if got.firstCode() != graph.CodeBadRequest || strings.Contains(got.body, "sent") || strings.Contains(got.body, "__typename") {
			t.Errorf("%s: %d %s, want BAD_REQUEST and nothing run", name, got.status, got.body)
		}
	}
	// A real upload with the header gets past the transport: what it says next is the
	// resolver's business (this test server has no application behind it).
	got := serve(t, h, multipartRequest(`{"query":"mutation($f: Upload!) { uploadImage(file: $f) { url } }","variables":{"f":null}}`, `{"0":["variables.f"]}`, true))
	if got.firstCode() == graph.CodeBadRequest || got.status == http.StatusBadRequest {
		t.Errorf("an upload with the preflight header: %d %s, want it taken", got.status, got.body)
	}
	// A form-encoded or text/plain post is no GraphQL request here either.
	for _, ct := range []string{"application/x-www-form-urlencoded", "text/plain"} {
		req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(`query=mutation{sendLoginCode(phone:"13800138000"){sent}}`))
		req.Header.Set("Content-Type", ct)
		if got := serve(t, h, req); got.status < 400 || got.firstCode() != graph.CodeBadRequest || strings.Contains(got.body, "sent") {
			t.Errorf("%s post: %d %s, want BAD_REQUEST", ct, got.status, got.body)
		}
	}
}

// A request from a page of another origin is refused; the server's own pages, allowed
// origins and clients that send no Origin (apps, curl) are served.
func TestCrossOriginRequestsAreRefused(t *testing.T) {
	t.Parallel()
	opts := defaults
	opts.AllowedOrigins = []string{"https://app.example.com"}
	h := graph.NewTestServer(opts)
	for _, c := range []struct {
		origin string
		ok     bool
	}{
		{"", true},
		{"https://api.example.com", true}, // the request's own host
		{"HTTPS://App.Example.com", true},
		{"https://evil.example", false},
		{"https://api.example.com.evil.example", false},
		{"null", false},
		{"not a url", false},
	} {
		req := httptest.NewRequest(http.MethodPost, "https://api.example.com/graphql", strings.NewReader(`{"query":"{ __typename }"}`))
		req.Header.Set("Content-Type", "application/json")
		if c.origin != "" {
			req.Header.Set("Origin", c.origin)
		}
		got := serve(t, h, req)
		served := got.status == http.StatusOK && strings.Contains(got.body, `"__typename":"Query"`)
		if served != c.ok {
			t.Errorf("Origin %q: %d %s, want served=%v", c.origin, got.status, got.body, c.ok)
		}
		if !c.ok && (got.status != http.StatusForbidden || got.firstCode() != graph.CodeBadRequest) {
			t.Errorf("Origin %q: %d %s, want 403 BAD_REQUEST", c.origin, got.status, got.body)
		}
	}
}

// Every answer of /graphql, errors included, tells browsers not to guess its type.
func TestGraphQLAnswersAreNotSniffed(t *testing.T) {
	t.Parallel()
	h := uploadServer()
	for name, req := range map[string]*http.Request{
		"data":           httptest.NewRequest(http.MethodGet, "/graphql?query=%7B__typename%7D", nil),
		"invalid":        httptest.NewRequest(http.MethodGet, "/graphql?query=%7Bnope%7D", nil),
		"not json":       httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader("{")),
		"bad method":     httptest.NewRequest(http.MethodPut, "/graphql", nil),
		"no preflight":   multipartRequest(`{"query":"{ __typename }"}`, "{}", false),
		"foreign origin": httptest.NewRequest(http.MethodGet, "/graphql?query=%7B__typename%7D", nil),
	} {
		if name == "not json" {
			req.Header.Set("Content-Type", "application/json")
		}
		if name == "foreign origin" {
			req.Header.Set("Origin", "https://evil.example")
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if got := rec.Header().Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s (%d): X-Content-Type-Options %q, want nosniff", name, rec.Code, got)
		}
	}
}

// A multipart map that names a path the operations do not hold is the client's mistake,
// not a server error.
func TestMultipartMapToAMissingPathIsABadRequest(t *testing.T) {
	t.Parallel()
	h := uploadServer()
	for name, ops := range map[string]string{
		"no variables":     `{"query":"mutation($f: Upload!) { uploadImage(file: $f) { url } }"}`,
		"variables a list": `{"query":"mutation($f: Upload!) { uploadImage(file: $f) { url } }","variables":{"f":[]}}`,
		"variables no map": `{"query":"mutation($f: Upload!) { uploadImage(file: $f) { url } }","variables":{"f":"x"}}`,
	} {
		mapping := `{"0":["variables.f"]}`
		if name != "no variables" {
			mapping = `{"0":["variables.f.3"]}`
		}
		got := serve(t, h, multipartRequest(ops, mapping, true))
		if got.status >= 500 || got.firstCode() != graph.CodeBadRequest {
			t.Errorf("%s: %d %s, want BAD_REQUEST", name, got.status, got.body)
		}
	}
}
