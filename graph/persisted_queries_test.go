package graph_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/99designs/gqlgen/graphql"

	"github.com/dealspot/dealspot/graph"
	"github.com/dealspot/dealspot/internal/reqmeta"
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

// persisted builds an automatic persisted query request: its hash, and its text unless
// query is empty; over GET in the query string, else as a JSON POST; from client ip.
func persisted(method, hash, query, ip string) *http.Request {
	ext := `{"persistedQuery":{"version":1,"sha256Hash":"` + hash + `"}}`
	var req *http.Request
	if method == http.MethodGet {
		v := url.Values{"extensions": {ext}}
		if query != "" {
			v.Set("query", query)
		}
		req = httptest.NewRequest(http.MethodGet, "/graphql?"+v.Encode(), nil)
	} else {
		body := map[string]any{"extensions": json.RawMessage(ext)}
		if query != "" {
			body["query"] = query
		}
		raw, _ := json.Marshal(body)
		req = httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(string(raw)))
		req.Header.Set("Content-Type", "application/json")
	}
	return req.WithContext(reqmeta.With(req.Context(), reqmeta.Meta{ClientIP: ip}))
}

func (c *sharedCache) has(hash string) bool {
	_, ok := c.Get(context.Background(), hash)
	return ok
}

// typename is a distinct valid document for each n, as a flood of registrations sends.
func typename(n int) string { return fmt.Sprintf("#%d\n{ __typename }", n) }

// Only a document that parsed and validated — every limit included — is registered: a
// hash that matches a document the server refused is never stored, locally or shared.
func TestRefusedDocumentsAreNotRegistered(t *testing.T) {
	t.Parallel()
	shared := &sharedCache{m: map[string]string{}}
	opts := defaults
	opts.PersistedQueries = shared
	opts.MaxDepth = 3
	h := graph.NewTestServer(opts)
	for name, doc := range map[string]string{
		"unparsable":       "#" + strings.Repeat("x", 60<<10/2) + "\n{{{",
		"unknown field":    "#1\n{ noSuchField }",
		"too deep":         "{ shops { edges { node { id } } } }",
		"unknown variable": "query($x: Nope) { __typename }",
		"wrong operation":  "query A { __typename } query B { __typename }",
	} {
		hash := sha(doc)
		got := serve(t, h, persisted(http.MethodPost, hash, doc, "203.0.113.1"))
		if len(got.Errors) == 0 {
			t.Errorf("%s: accepted: %s", name, got.body)
		}
		if shared.has(hash) {
			t.Errorf("%s: the refused document was stored in the shared cache", name)
		}
		if got := serve(t, h, persisted(http.MethodPost, hash, "", "203.0.113.1")); got.firstCode() != "PERSISTED_QUERY_NOT_FOUND" {
			t.Errorf("%s: the hash alone after a refused registration: %s, want PERSISTED_QUERY_NOT_FOUND", name, got.body)
		}
	}
}

// A GET never registers a document (a link or an image on any site can send one); it
// runs queries, a registered one by its hash alone too.
func TestPersistedQueriesOverGET(t *testing.T) {
	t.Parallel()
	shared := &sharedCache{m: map[string]string{}}
	opts := defaults
	opts.PersistedQueries = shared
	h := graph.NewTestServer(opts)
	doc := typename(1)
	if got := serve(t, h, persisted(http.MethodGet, sha(doc), doc, "203.0.113.1")); len(got.Errors) > 0 || !strings.Contains(got.body, `"__typename":"Query"`) {
		t.Fatalf("query with its hash over GET: %d %s, want data", got.status, got.body)
	}
	if shared.has(sha(doc)) {
		t.Fatal("a GET registered a persisted query in the shared cache")
	}
	if got := serve(t, h, persisted(http.MethodGet, sha(doc), "", "203.0.113.1")); got.firstCode() != "PERSISTED_QUERY_NOT_FOUND" {
		t.Fatalf("hash alone after a GET: %s, want PERSISTED_QUERY_NOT_FOUND (a GET registers nothing)", got.body)
	}
	// Registered by a POST, the hash alone runs over GET and POST.
	if got := serve(t, h, persisted(http.MethodPost, sha(doc), doc, "203.0.113.1")); len(got.Errors) > 0 || !shared.has(sha(doc)) {
		t.Fatalf("registering over POST: %s, stored %v", got.body, shared.has(sha(doc)))
	}
	for _, m := range []string{http.MethodGet, http.MethodPost} {
		if got := serve(t, h, persisted(m, sha(doc), "", "203.0.113.1")); len(got.Errors) > 0 || !strings.Contains(got.body, `"__typename":"Query"`) {
			t.Errorf("hash alone over %s: %d %s, want data", m, got.status, got.body)
		}
	}
	// A mutation over GET is refused, by its hash too.
	const mutation = `mutation { logout }`
	serve(t, h, persisted(http.MethodPost, sha(mutation), mutation, "203.0.113.1"))
	if got := serve(t, h, persisted(http.MethodGet, sha(mutation), "", "203.0.113.1")); got.status < 400 || got.firstCode() != graph.CodeBadRequest {
		t.Errorf("a mutation over GET by its hash: %d %s, want BAD_REQUEST", got.status, got.body)
	}
}

// A document over APQMaxDocumentBytes runs but is not registered.
func TestOversizedPersistedQueryIsNotRegistered(t *testing.T) {
	t.Parallel()
	shared := &sharedCache{m: map[string]string{}}
	opts := defaults
	opts.PersistedQueries = shared
	opts.APQ.MaxDocumentBytes = 1024
	h := graph.NewTestServer(opts)
	big := "#" + strings.Repeat("x", 2000) + "\n{ __typename }"
	if got := serve(t, h, persisted(http.MethodPost, sha(big), big, "203.0.113.1")); len(got.Errors) > 0 || !strings.Contains(got.body, `"__typename":"Query"`) {
		t.Fatalf("an oversized document: %d %s, want it to run", got.status, got.body)
	}
	if shared.has(sha(big)) {
		t.Error("an oversized document was stored in the shared cache")
	}
	if got := serve(t, h, persisted(http.MethodPost, sha(big), "", "203.0.113.1")); got.firstCode() != "PERSISTED_QUERY_NOT_FOUND" {
		t.Errorf("hash alone of an oversized document: %s, want PERSISTED_QUERY_NOT_FOUND", got.body)
	}
	small := typename(1)
	if serve(t, h, persisted(http.MethodPost, sha(small), small, "203.0.113.1")); !shared.has(sha(small)) {
		t.Error("a document within the limit was not registered")
	}
}

// One client address registers at most RegistrationsPerClient documents per window;
// others are not held back by it, and the window passes.
func TestPersistedQueryRegistrationsArePerClientLimited(t *testing.T) {
	t.Parallel()
	shared := &sharedCache{m: map[string]string{}}
	var mu sync.Mutex
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	opts := defaults
	opts.PersistedQueries = shared
	opts.APQ.RegistrationsPerClient, opts.APQ.RegistrationWindow = 3, time.Minute
	opts.APQ.Now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	h := graph.NewTestServer(opts)
	register := func(n int, ip string) bool {
		doc := typename(n)
		if got := serve(t, h, persisted(http.MethodPost, sha(doc), doc, ip)); len(got.Errors) > 0 {
			t.Fatalf("document %d from %s: %s, want it to run (refused registrations still run)", n, ip, got.body)
		}
		return shared.has(sha(doc))
	}
	stored := 0
	for n := range 10 {
		if register(n, "203.0.113.1") {
			stored++
		}
	}
	if stored != 3 {
		t.Errorf("one client registered %d of 10 documents in a window, want 3", stored)
	}
	if !register(100, "203.0.113.2") {
		t.Error("another client was refused a registration")
	}
	mu.Lock()
	now = now.Add(time.Minute)
	mu.Unlock()
	if !register(200, "203.0.113.1") {
		t.Error("the client was refused a registration after the window passed")
	}
}

// Under a flood of distinct registrations the node keeps at most APQ.MaxBytes of text:
// the newest documents are found by their hash, the oldest are gone.
func TestPersistedQueriesStayWithinTheByteBudget(t *testing.T) {
	t.Parallel()
	opts := defaults
	opts.QueryCacheSize = 100_000
	opts.APQ.MaxBytes = 4 << 10
	h := graph.NewTestServer(opts)
	const n = 3000
	for i := range n {
		doc := typename(i)
		serve(t, h, persisted(http.MethodPost, sha(doc), doc, "203.0.113.1"))
	}
	if got := serve(t, h, persisted(http.MethodPost, sha(typename(n-1)), "", "203.0.113.1")); len(got.Errors) > 0 {
		t.Errorf("the newest document by its hash: %s", got.body)
	}
	if got := serve(t, h, persisted(http.MethodPost, sha(typename(0)), "", "203.0.113.1")); got.firstCode() != "PERSISTED_QUERY_NOT_FOUND" {
		t.Errorf("the oldest of %d documents of %d bytes was kept within %d bytes: %s", n, len(typename(0)), opts.APQ.MaxBytes, got.body)
	}
	c := graph.NewPersistedQueryLRU(1000, 4<<10)
	for i := range n {
		c.Add(context.Background(), sha(typename(i)), typename(i))
		if c.Bytes() > 4<<10 {
			t.Fatalf("after %d registrations the cache holds %d bytes, over its %d", i+1, c.Bytes(), 4<<10)
		}
	}
	if c.Len() == 0 || c.Len() >= 1000 {
		t.Errorf("%d documents kept, want some and fewer than the entry limit", c.Len())
	}
	c.Add(context.Background(), sha("huge"), strings.Repeat("x", 5<<10))
	if _, ok := c.Get(context.Background(), sha("huge")); ok || c.Bytes() > 4<<10 {
		t.Errorf("a document larger than the whole budget was kept (%d bytes)", c.Bytes())
	}
}
