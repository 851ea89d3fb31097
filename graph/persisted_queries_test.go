package graph_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/99designs/gqlgen/graphql"

	"github.com/dealspot/dealspot/graph"
)

// postPersisted sends an operation as an automatic persisted query: its hash, and its
// text unless query is empty.
func postPersisted(t *testing.T, h http.Handler, hash, query string) answer {
	t.Helper()
	body := map[string]any{"extensions": map[string]any{"persistedQuery": map[string]any{"version": 1, "sha256Hash": hash}}}
	if query != "" {
		body["query"] = query
	}
	raw, _ := json.Marshal(body)
	req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(string(raw)))
	req.Header.Set("Content-Type", "application/json")
	return serve(t, h, req)
}

func sha(query string) string {
	s := sha256.Sum256([]byte(query))
	return hex.EncodeToString(s[:])
}

// sharedCache is a graphql.Cache[string] two servers share, as Redis is shared by nodes.
type sharedCache struct {
	mu sync.Mutex
	m  map[string]string
}

func (c *sharedCache) Get(_ context.Context, k string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *sharedCache) Add(_ context.Context, k, v string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k] = v
}

// brokenCache fails the way a cache must not take the server down with it.
type brokenCache struct{}

func (brokenCache) Get(context.Context, string) (string, bool) { panic("redis exploded") }
func (brokenCache) Add(context.Context, string, string)        { panic("redis exploded") }

// A persisted query registered on one node is found by another that shares the cache.
func TestPersistedQueryRegisteredOnOneNodeIsFoundOnAnother(t *testing.T) {
	t.Parallel()
	const query = `query Typename { __typename }`
	shared := &sharedCache{m: map[string]string{}}
	opts := defaults
	opts.PersistedQueries = shared
	a, b := graph.NewTestServer(opts), graph.NewTestServer(opts)

	if got := postPersisted(t, b, sha(query), ""); got.firstCode() != "PERSISTED_QUERY_NOT_FOUND" {
		t.Fatalf("unknown hash: %d %s, want PERSISTED_QUERY_NOT_FOUND", got.status, got.body)
	}
	if got := postPersisted(t, a, sha(query), query); len(got.Errors) > 0 || !strings.Contains(got.body, `"__typename":"Query"`) {
		t.Fatalf("registering on node A: %d %s", got.status, got.body)
	}
	if got := postPersisted(t, b, sha(query), ""); len(got.Errors) > 0 || !strings.Contains(got.body, `"__typename":"Query"`) {
		t.Fatalf("the hash alone on node B: %d %s, want data", got.status, got.body)
	}

	// Without a shared cache each node knows only what it was sent.
	alone := defaults
	c, d := graph.NewTestServer(alone), graph.NewTestServer(alone)
	postPersisted(t, c, sha(query), query)
	if got := postPersisted(t, d, sha(query), ""); got.firstCode() != "PERSISTED_QUERY_NOT_FOUND" {
		t.Fatalf("a node-local cache shared a query: %d %s", got.status, got.body)
	}
}

// A shared cache that fails makes a hash unknown, never an error or a crash: the client
// sends the text, which this node then keeps.
func TestPersistedQueriesSurviveABrokenSharedCache(t *testing.T) {
	t.Parallel()
	const query = `query Typename { __typename }`
	opts := defaults
	opts.PersistedQueries = brokenCache{}
	h := graph.NewTestServer(opts)
	if got := postPersisted(t, h, sha(query), ""); got.status == http.StatusInternalServerError || got.firstCode() != "PERSISTED_QUERY_NOT_FOUND" {
		t.Fatalf("hash alone with a broken cache: %d %s, want PERSISTED_QUERY_NOT_FOUND", got.status, got.body)
	}
	if got := postPersisted(t, h, sha(query), query); len(got.Errors) > 0 || !strings.Contains(got.body, `"__typename":"Query"`) {
		t.Fatalf("hash and text with a broken cache: %d %s", got.status, got.body)
	}
	if got := postPersisted(t, h, sha(query), ""); len(got.Errors) > 0 || !strings.Contains(got.body, `"__typename":"Query"`) {
		t.Fatalf("hash alone after registering, from the local cache: %d %s", got.status, got.body)
	}
}

var _ graphql.Cache[string] = (*sharedCache)(nil)
