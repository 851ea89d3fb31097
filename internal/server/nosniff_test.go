package server_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/dealspot/dealspot/internal/server"
)

// The refusals the edge writes itself for /graphql, before the GraphQL handler sees the
// request, also tell browsers not to guess their type.
func TestGraphQLRefusalsAtTheEdgeAreNotSniffed(t *testing.T) {
	t.Parallel()
	h, _ := newTestHandler(t, server.Options{MaxBodyBytes: 1024, MaxURLBytes: 1024})
	for name, req := range map[string]*http.Request{
		"URL too long":  httptest.NewRequest(http.MethodGet, "/graphql?query="+strings.Repeat("x", 2048), nil),
		"body too long": httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(strings.Repeat("x", 2048))),
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code < 400 || rec.Header().Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: %d, X-Content-Type-Options %q, want a refusal with nosniff", name, rec.Code, rec.Header().Get("X-Content-Type-Options"))
		}
	}
}
