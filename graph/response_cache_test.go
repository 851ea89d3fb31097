package graph_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealspot/dealspot/graph"
	"github.com/dealspot/dealspot/internal/app"
	"github.com/dealspot/dealspot/internal/app/shop"
	"github.com/dealspot/dealspot/internal/app/shop/shoptest"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/reqmeta"
)

// countingShops counts the shop reads that reach the repository: one per execution of
// a shop query (no read cache in between).
type countingShops struct {
	*shoptest.MemShops
	reads   atomic.Int64
	delay   time.Duration
	failing atomic.Bool
}

func (c *countingShops) Shop(ctx context.Context, id int64) (domain.Shop, error) {
	c.reads.Add(1)
	time.Sleep(c.delay)
	if c.failing.Load() {
		return domain.Shop{}, context.DeadlineExceeded
	}
	return c.MemShops.Shop(ctx, id)
}

type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (f *fakeClock) Now() time.Time { f.mu.Lock(); defer f.mu.Unlock(); return f.now }
func (f *fakeClock) Add(d time.Duration) {
	f.mu.Lock()
	f.now = f.now.Add(d)
	f.mu.Unlock()
}

type cacheFixture struct {
	h     http.Handler
	cache *graph.ResponseCache
	shops *countingShops
	clock *fakeClock
	views atomic.Int64
}

func newCacheFixture(t testing.TB, o graph.ResponseCacheOptions, delay time.Duration) *cacheFixture {
	t.Helper()
	f := &cacheFixture{shops: &countingShops{MemShops: shoptest.NewMemShops(), delay: delay}, clock: &fakeClock{now: time.Unix(1_700_000_000, 0)}}
	typ := f.shops.CreateShopType(domain.ShopType{Name: "Tea"})
	if _, err := f.shops.CreateShop(context.Background(), domain.Shop{Name: "Tea House", TypeID: typ.ID, Address: "1 Road"}); err != nil {
		t.Fatal(err)
	}
	q, err := shop.NewQueries(shop.Deps{Repo: f.shops, Geo: shoptest.NewMemGeoIndex()},
		domain.PageLimits{Default: 10, Max: 100}, shop.NearbyLimits{DefaultRadiusMeters: 5000, MaxRadiusMeters: 20000})
	if err != nil {
		t.Fatal(err)
	}
	if o.TTL == 0 {
		o.TTL = time.Second
	}
	if o.MaxBytes == 0 {
		o.MaxBytes = 1 << 20
	}
	if o.MaxEntryBytes == 0 {
		o.MaxEntryBytes = 64 << 10
	}
	o.Now = f.clock.Now
	o.CountView = func(context.Context, string, int64) { f.views.Add(1) }
	if f.cache, err = graph.NewResponseCache(o); err != nil {
		t.Fatal(err)
	}
	opts := defaults
	opts.ResponseCache = f.cache
	a := &app.Application{}
	a.Queries.Shops = q
	f.h = graph.NewHandler(a, slog.New(slog.DiscardHandler), opts)
	return f
}

const shopQuery = `{ shop(id:"2"){ id name typeId address } }`

func getRequest(query string) *http.Request {
	r := httptest.NewRequest(http.MethodGet, "/graphql?query="+url.QueryEscape(query), nil)
	return r.WithContext(reqmeta.With(r.Context(), reqmeta.Meta{ClientIP: "192.0.2.1"}))
}

func postRequest(query string) *http.Request {
	r := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(`{"query":`+quoteJSON(query)+`}`))
	r.Header.Set("Content-Type", "application/json")
	return r.WithContext(reqmeta.With(r.Context(), reqmeta.Meta{ClientIP: "192.0.2.1"}))
}

func quoteJSON(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s) + `"`
}

func (f *cacheFixture) do(r *http.Request) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	f.h.ServeHTTP(w, r)
	return w
}

func TestResponseCacheHitReplaysTheSameBytesWithoutExecuting(t *testing.T) {
	for name, req := range map[string]func(string) *http.Request{"GET": getRequest, "POST": postRequest} {
		t.Run(name, func(t *testing.T) {
			f := newCacheFixture(t, graph.ResponseCacheOptions{}, 0)
			first := f.do(req(shopQuery))
			if first.Code != http.StatusOK || !strings.Contains(first.Body.String(), "Tea House") {
				t.Fatalf("first answer %d %s", first.Code, first.Body)
			}
			second := f.do(req(shopQuery))
			if second.Body.String() != first.Body.String() || second.Header().Get("Content-Type") != first.Header().Get("Content-Type") {
				t.Fatalf("replayed %q (%s), want %q (%s)", second.Body, second.Header().Get("Content-Type"), first.Body, first.Header().Get("Content-Type"))
			}
			if second.Header().Get("X-Content-Type-Options") != "nosniff" {
				t.Errorf("hit without nosniff")
			}
			if n := f.shops.reads.Load(); n != 1 {
				t.Errorf("shop read %d times, want 1", n)
			}
			if n := f.views.Load(); n != 1 {
				t.Errorf("the hit counted %d visits, want 1", n)
			}
		})
	}
}

func TestResponseCacheBypasses(t *testing.T) {
	cases := map[string]func(*http.Request){
		"another Accept": func(r *http.Request) {
			r.Header.Set("Accept", "application/graphql-response+json")
		},
	}
	for name, change := range cases {
		t.Run(name, func(t *testing.T) {
			f := newCacheFixture(t, graph.ResponseCacheOptions{}, 0)
			f.do(getRequest(shopQuery))
			r := getRequest(shopQuery)
			change(r)
			if w := f.do(r); w.Code != http.StatusOK {
				t.Fatalf("status %d: %s", w.Code, w.Body)
			}
			if n := f.shops.reads.Load(); n != 2 {
				t.Errorf("shop read %d times, want 2 (the second request ran)", n)
			}
		})
	}
}

func TestResponseCacheLeavesRequestsWithCredentials(t *testing.T) {
	f := newCacheFixture(t, graph.ResponseCacheOptions{}, 0)
	f.do(getRequest(shopQuery))
	var ran int
	h := f.cache.Middleware(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { ran++ }))
	r := getRequest(shopQuery)
	r.Header.Set("Authorization", "Bearer a-token")
	h.ServeHTTP(httptest.NewRecorder(), r)
	if ran != 1 {
		t.Errorf("a request with credentials was answered from the cache")
	}
	h.ServeHTTP(httptest.NewRecorder(), getRequest(shopQuery))
	if ran != 1 {
		t.Errorf("the anonymous request was not answered from the cache")
	}
}

func TestResponseCacheMutationsRunEveryTimeAndDropAnswers(t *testing.T) {
	f := newCacheFixture(t, graph.ResponseCacheOptions{}, 0)
	f.do(postRequest(shopQuery))
	const mutation = `mutation { updateShop(input:{id:"2", name:"New"}){ id } }`
	for range 2 {
		w := f.do(postRequest(mutation))
		if !strings.Contains(w.Body.String(), "UNAUTHENTICATED") {
			t.Fatalf("mutation answered %s", w.Body)
		}
	}
	f.do(postRequest(shopQuery))
	if n := f.shops.reads.Load(); n != 2 {
		t.Errorf("shop read %d times, want 2: a mutation drops cached answers", n)
	}
}

func TestResponseCacheDropForgetsAnswers(t *testing.T) {
	f := newCacheFixture(t, graph.ResponseCacheOptions{}, 0)
	f.do(getRequest(shopQuery))
	f.cache.Drop()
	f.do(getRequest(shopQuery))
	f.do(getRequest(shopQuery))
	if n := f.shops.reads.Load(); n != 2 {
		t.Errorf("shop read %d times, want 2", n)
	}
}

func TestResponseCacheExpiresAfterTTL(t *testing.T) {
	f := newCacheFixture(t, graph.ResponseCacheOptions{TTL: time.Second}, 0)
	f.do(getRequest(shopQuery))
	f.clock.Add(999 * time.Millisecond)
	f.do(getRequest(shopQuery))
	if n := f.shops.reads.Load(); n != 1 {
		t.Fatalf("shop read %d times within the TTL, want 1", n)
	}
	f.clock.Add(time.Millisecond)
	f.do(getRequest(shopQuery))
	if n := f.shops.reads.Load(); n != 2 {
		t.Errorf("shop read %d times after the TTL, want 2", n)
	}
}

func TestResponseCacheKeepsNoErrors(t *testing.T) {
	f := newCacheFixture(t, graph.ResponseCacheOptions{}, 0)
	f.shops.failing.Store(true)
	if w := f.do(getRequest(shopQuery)); !strings.Contains(w.Body.String(), `"errors"`) {
		t.Fatalf("want an error answer, got %s", w.Body)
	}
	f.shops.failing.Store(false)
	if w := f.do(getRequest(shopQuery)); !strings.Contains(w.Body.String(), "Tea House") {
		t.Fatalf("the error was replayed: %s", w.Body)
	}
	if n := f.shops.reads.Load(); n != 2 {
		t.Errorf("shop read %d times, want 2", n)
	}
}

func TestResponseCacheKeepsNoAnswerOverMaxEntryBytes(t *testing.T) {
	f := newCacheFixture(t, graph.ResponseCacheOptions{MaxEntryBytes: 20}, 0)
	f.do(getRequest(shopQuery))
	f.do(getRequest(shopQuery))
	if n := f.shops.reads.Load(); n != 2 {
		t.Errorf("shop read %d times, want 2 (the answer is over MaxEntryBytes)", n)
	}
}

func TestResponseCacheStaysWithinMaxBytes(t *testing.T) {
	f := newCacheFixture(t, graph.ResponseCacheOptions{MaxBytes: 4 << 10}, 0)
	// 100 distinct answers of ~150 bytes (with their keys) cannot all stay in 4 KB.
	for i := range 100 {
		f.do(getRequest(shopQuery + strings.Repeat(" ", i)))
	}
	before := f.shops.reads.Load()
	for i := range 100 {
		f.do(getRequest(shopQuery + strings.Repeat(" ", i)))
	}
	if again := f.shops.reads.Load() - before; again < 50 {
		t.Errorf("only %d of 100 answers had to run again: more than 4 KB was kept", again)
	}
}

func TestResponseCacheRunsAColdKeyOnce(t *testing.T) {
	f := newCacheFixture(t, graph.ResponseCacheOptions{}, 100*time.Millisecond)
	var wg sync.WaitGroup
	bodies := make([]string, 20)
	for i := range bodies {
		wg.Go(func() { bodies[i] = f.do(getRequest(shopQuery)).Body.String() })
	}
	wg.Wait()
	if n := f.shops.reads.Load(); n != 1 {
		t.Errorf("20 concurrent cold reads ran %d times, want 1", n)
	}
	for _, b := range bodies {
		if b != bodies[0] || !strings.Contains(b, "Tea House") {
			t.Fatalf("answers differ: %q vs %q", b, bodies[0])
		}
	}
	if n := f.views.Load(); n != 19 {
		t.Errorf("the waiting reads counted %d visits, want 19", n)
	}
}

func TestResponseCacheHitsStillPassTheGuards(t *testing.T) {
	f := newCacheFixture(t, graph.ResponseCacheOptions{}, 0)
	f.do(getRequest(shopQuery))
	r := getRequest(shopQuery)
	r.Header.Set("Origin", "https://evil.example")
	if w := f.do(r); w.Code != http.StatusForbidden {
		t.Errorf("a cached answer went to a refused origin: %d %s", w.Code, w.Body)
	}
}

// BenchmarkResponseCache measures the /graphql handler on a public shop query, answered
// from the response cache (hit) and run by gqlgen every time (miss: the cache dropped
// before each request).
//
//	go test -run '^$' -bench BenchmarkResponseCache -benchmem ./graph/
func BenchmarkResponseCache(b *testing.B) {
	const q = `{ shop(id:"2"){ id name typeId images { url width height } area address avgPrice sold comments score openHours } }`
	for _, name := range []string{"hit", "miss"} {
		for method, req := range map[string]func(string) *http.Request{"GET": getRequest, "POST": postRequest} {
			b.Run(name+"/"+method, func(b *testing.B) {
				f := newCacheFixture(b, graph.ResponseCacheOptions{TTL: time.Hour}, 0)
				if w := f.do(req(q)); w.Code != http.StatusOK || strings.Contains(w.Body.String(), "errors") {
					b.Fatalf("%d %s", w.Code, w.Body)
				}
				b.ReportAllocs()
				for b.Loop() {
					if name == "miss" {
						f.cache.Drop()
					}
					w := httptest.NewRecorder()
					f.h.ServeHTTP(w, req(q))
				}
			})
		}
	}
}

// A document that selects a field whose value depends on the caller or the moment is
// never answered from another request's answer, even inside a fragment.
func TestResponseCacheKeepsNoVolatileDocument(t *testing.T) {
	f := newCacheFixture(t, graph.ResponseCacheOptions{}, 0)
	for _, q := range []string{
		`{ shop(id:"2"){ id name } me { id } }`,
		`query { shop(id:"2"){ id } ...F } fragment F on Query { me { id } }`,
	} {
		before := f.shops.reads.Load()
		for range 3 {
			if w := f.do(getRequest(q)); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"me":null`) {
				t.Fatalf("%s: %d %s", q, w.Code, w.Body.String())
			}
		}
		if n := f.shops.reads.Load() - before; n != 3 {
			t.Errorf("%s: three reads ran %d times, want 3 (never cached)", q, n)
		}
	}
	// The same shop without the volatile field is cached.
	before := f.shops.reads.Load()
	for range 3 {
		f.do(getRequest(`{ shop(id:"2"){ id name } }`))
	}
	if n := f.shops.reads.Load() - before; n != 1 {
		t.Errorf("a plain shop read ran %d times in three requests, want 1", n)
	}
}
