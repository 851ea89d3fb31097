package server_test

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/dealspot/dealspot/internal/server"
)

// stubGraphQL answers every request with an empty object and counts them.
type stubGraphQL struct{ calls atomic.Int64 }

func (s *stubGraphQL) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	s.calls.Add(1)
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"data":{}}`))
}

func newTestHandler(t *testing.T, o server.Options) (http.Handler, *stubGraphQL) {
	t.Helper()
	gql := &stubGraphQL{}
	o.Log = slog.New(slog.DiscardHandler)
	o.GraphQL = gql
	o.Metrics = server.NewMetrics()
	return server.NewHandler(o), gql
}

type coded struct {
	Errors []struct {
		Message    string         `json:"message"`
		Extensions map[string]any `json:"extensions"`
	} `json:"errors"`
}

func (c coded) code() string {
	if len(c.Errors) == 0 {
		return ""
	}
	s, _ := c.Errors[0].Extensions["code"].(string)
	return s
}

func TestLongGETQueriesAreRefusedLikeLargeBodies(t *testing.T) {
	t.Parallel()
	h, gql := newTestHandler(t, server.Options{MaxBodyBytes: 1024, MaxURLBytes: 1024})
	short := "/graphql?query=" + url.QueryEscape("{ shopTypes { id } }")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, short, nil))
	if rec.Code != http.StatusOK || gql.calls.Load() != 1 {
		t.Fatalf("short GET: status %d, %d calls", rec.Code, gql.calls.Load())
	}
	long := "/graphql?query=" + url.QueryEscape("{"+strings.Repeat(" __typename", 200)+" }")
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, long, nil))
	var body coded
	_ = json.Unmarshal(rec.Body.Bytes(), &body)
	if rec.Code != http.StatusRequestURITooLong || body.code() != "REQUEST_TOO_LARGE" {
		t.Fatalf("long GET: status %d %s, want 414 REQUEST_TOO_LARGE", rec.Code, rec.Body.String())
	}
	if strings.Contains(rec.Body.String(), "__typename") {
		t.Errorf("the refusal echoes the request: %s", rec.Body.String())
	}
	if gql.calls.Load() != 1 {
		t.Errorf("the long GET reached GraphQL")
	}
}
