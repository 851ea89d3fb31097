package service_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/shop"
	"github.com/dealspot/dealspot/internal/config"
	"github.com/dealspot/dealspot/internal/service"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// loadDelay is how long every database read of a shop takes in these tests, so that
// concurrent readers of a cold shop surely overlap with its load.
const loadDelay = 100 * time.Millisecond

// countedInstance is one Dealspot process whose shop reads are counted.
type countedInstance struct {
	srv    *httptest.Server
	svc    *service.Node
	shops  *testsupport.CountingShops
	client testsupport.GraphQLClient
}

// shopCacheConfig reads the configuration from vars over the embedded defaults.
func shopCacheConfig(t testing.TB, vars map[string]string) config.Config {
	t.Helper()
	all := map[string]string{"DEALSPOT_DATA_DIR": t.TempDir(), "JWT_SECRET": testSecret}
	for k, v := range vars {
		all[k] = v
	}
	testsupport.DevModeOnPurpose(all)
	cfg, err := config.Load(func(k string) string { return all[k] })
	if err != nil {
		t.Fatalf("config: %v", err)
	}
	return cfg
}

// startCounted builds Dealspot from cfg with its shop repository counted (each Shop read
// taking delay) and serves it over real HTTP.
func startCounted(t *testing.T, cfg config.Config, delay time.Duration) *countedInstance {
	t.Helper()
	in := &countedInstance{}
	svc, err := service.New(context.Background(), cfg, slog.New(slog.DiscardHandler),
		service.WithShopRepository(func(r shop.Repository) shop.Repository {
			in.shops = testsupport.NewCountingShops(r, delay)
			return in.shops
		}))
	if err != nil {
		t.Fatalf("build service: %v", err)
	}
	in.svc = svc
	in.srv = httptest.NewServer(svc.Handler)
	in.client = testsupport.GraphQLClient{URL: in.srv.URL + "/graphql"}
	t.Cleanup(func() {
		in.srv.Close()
		if err := svc.Close(); err != nil {
			t.Errorf("close service: %v", err)
		}
	})
	return in
}

// requireSharedBackends returns the settings for several instances sharing one fresh
// PostgreSQL database and one real Redis database; it skips without them (fails under
// CI=true).
func requireSharedBackends(t *testing.T) map[string]string {
	t.Helper()
	return map[string]string{
		"DATABASE_URL": testsupport.PostgresURL(t),
		"REDIS_URL":    testsupport.RedisURL(t),
	}
}

// concurrentHTTP is an HTTP client that keeps enough connections for many concurrent
// readers.
func concurrentHTTP(t *testing.T, conns int) *http.Client {
	t.Helper()
	tr := &http.Transport{MaxIdleConns: conns, MaxIdleConnsPerHost: conns, IdleConnTimeout: time.Minute}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr, Timeout: 30 * time.Second}
}

const shopNameQuery = `query($id: ID!) { shop(id: $id) { id name } }`

// shopName asks url for shop id; it returns the shop's name, or found false for null.
// Unlike GraphQLClient.Do it reports failures as errors, so it may run off the test's
// goroutine.
func shopName(hc *http.Client, url string, id int64) (name string, found bool, err error) {
	body, _ := json.Marshal(map[string]any{"query": shopNameQuery, "variables": map[string]any{"id": strconv.FormatInt(id, 10)}})
	resp, err := hc.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		return "", false, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", false, err
	}
	var out struct {
		Data struct {
			Shop *struct{ ID, Name string }
		}
		Errors []testsupport.GQLError
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return "", false, fmt.Errorf("status %d, not GraphQL JSON: %s", resp.StatusCode, raw)
	}
	if len(out.Errors) > 0 {
		return "", false, fmt.Errorf("GraphQL errors: %+v", out.Errors)
	}
	if out.Data.Shop == nil {
		return "", false, nil
	}
	if out.Data.Shop.ID != strconv.FormatInt(id, 10) {
		return "", false, fmt.Errorf("asked for shop %d, got shop %s", id, out.Data.Shop.ID)
	}
	return out.Data.Shop.Name, true, nil
}

// readAtOnce has n goroutines, released together, read shop id, goroutine i through
// urls[i%len(urls)]. It fails the test unless every read finds the shop.
func readAtOnce(t *testing.T, urls []string, id int64, n int) {
	t.Helper()
	hc := concurrentHTTP(t, n)
	start := make(chan struct{})
	errs := make(chan error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			name, found, err := shopName(hc, urls[i%len(urls)], id)
			switch {
			case err != nil:
				errs <- err
			case !found || name == "":
				errs <- fmt.Errorf("shop %d: found %v, name %q", id, found, name)
			}
		}()
	}
	close(start)
	wg.Wait()
	close(errs)
	failed := 0
	for err := range errs {
		if failed++; failed <= 5 {
			t.Errorf("read: %v", err)
		}
	}
	if failed > 0 {
		t.Fatalf("%d of %d concurrent reads failed", failed, n)
	}
}

// cacheCounter returns the value of the cache counter metric (e.g.
// dealspot_cache_hits_total) of the shop cache with the given labels.
func cacheCounter(t *testing.T, svc *service.Node, metric string, labels map[string]string) float64 {
	t.Helper()
	families, err := svc.Metrics.Registry.Gather()
	if err != nil {
		t.Fatalf("gather metrics: %v", err)
	}
	for _, f := range families {
		if f.GetName() != metric {
			continue
		}
	next:
		for _, m := range f.GetMetric() {
			got := map[string]string{}
			for _, l := range m.GetLabel() {
				got[l.GetName()] = l.GetValue()
			}
			for k, v := range labels {
				if got[k] != v {
					continue next
				}
			}
			return m.GetCounter().GetValue()
		}
	}
	return 0
}

func TestShopCacheBreakdownOneLoadForManyConcurrentReaders(t *testing.T) {
	t.Parallel()
	redisBackends(t, func(t *testing.T, env map[string]string) {
		// Both cases share the backend's Redis, so each reads its own cold shop.
		cases := []struct {
			name  string
			l1TTL string
			id    int64
		}{
			{"L1 and Redis", "2s", 7},
			{"Redis only", "0", 8},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				vars := map[string]string{"CACHE_L1_TTL": tc.l1TTL}
				for k, v := range env {
					vars[k] = v
				}
				in := startCounted(t, shopCacheConfig(t, vars), loadDelay)
				readAtOnce(t, []string{in.client.URL}, tc.id, 1000)
				if got := in.shops.Loads(tc.id); got != 1 {
					t.Errorf("1000 concurrent reads of cold shop %d loaded it %d times, want exactly 1", tc.id, got)
				}
			})
		}
	})
}

func TestShopCacheTwoInstancesShareOneLoad(t *testing.T) {
	t.Parallel()
	cfg := shopCacheConfig(t, requireSharedBackends(t))
	a := startCounted(t, cfg, loadDelay)
	b := startCounted(t, cfg, loadDelay)
	const id = 5
	readAtOnce(t, []string{a.client.URL, b.client.URL}, id, 200)
	la, lb := a.shops.Loads(id), b.shops.Loads(id)
	if la+lb != 1 {
		t.Errorf("200 concurrent cold reads over two instances loaded shop %d %d times (A %d, B %d), want 1 in total", id, la+lb, la, lb)
	}
	waits := cacheCounter(t, a.svc, "dealspot_cache_lock_waits_total", map[string]string{"cache": "shop"}) +
		cacheCounter(t, b.svc, "dealspot_cache_lock_waits_total", map[string]string{"cache": "shop"})
	t.Logf("loads: A %d, B %d; lock waits: %.0f", la, lb, waits)
}

func TestShopCachePenetrationOneLoadPerNullTTL(t *testing.T) {
	t.Parallel()
	const nullTTL = time.Second
	const jitter = 0.1 // CACHE_TTL_JITTER_PERCENT=10: a null lives in [1s, 1.1s)
	redisBackends(t, func(t *testing.T, env map[string]string) {
		env["CACHE_NULL_TTL"] = nullTTL.String()
		env["CACHE_TTL_JITTER_PERCENT"] = "10"
		// The null cache is what is measured here; the Bloom filter would keep these
		// reads from the cache altogether (TestBloomFilterKeepsUnknownIDsOffTheDatabase).
		env["BLOOM_FILTER"] = "false"
		in := startCounted(t, shopCacheConfig(t, env), 0)
		const missing, reads, workers = 999999, 10000, 16
		hc := concurrentHTTP(t, workers)

		var next, failed atomic.Int64
		var wg sync.WaitGroup
		began := time.Now()
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for next.Add(1) <= reads {
					if _, found, err := shopName(hc, in.client.URL, missing); err != nil || found {
						if failed.Add(1) <= 5 {
							t.Errorf("read of missing shop: found %v, err %v", found, err)
						}
					}
				}
			}()
		}
		wg.Wait()
		elapsed := time.Since(began)
		if failed.Load() > 0 {
			t.Fatalf("%d reads of the missing shop failed", failed.Load())
		}
		loads := in.shops.Loads(missing)
		allowed := int64(elapsed/nullTTL) + 1
		t.Logf("%d reads of a missing shop in %s: %d database reads (at most %d allowed)", reads, elapsed.Round(time.Millisecond), loads, allowed)
		if loads < 1 || loads > allowed {
			t.Fatalf("%d reads over %s reached the database %d times, want 1..%d (one per null TTL of %s)", reads, elapsed, loads, allowed, nullTTL)
		}

		// Once the cached null has expired, the next read asks the database again, once;
		// the reads after it again reach the database at most once per null TTL.
		time.Sleep(time.Duration(float64(nullTTL)*(1+jitter)) + 100*time.Millisecond)
		began = time.Now()
		if _, found, err := shopName(hc, in.client.URL, missing); err != nil || found {
			t.Fatalf("read after expiry: found %v, err %v", found, err)
		}
		if got := in.shops.Loads(missing); got != loads+1 {
			t.Fatalf("the first read after the null expired reached the database %d times, want 1", got-loads)
		}
		for i := range 50 {
			if _, found, err := shopName(hc, in.client.URL, missing); err != nil || found {
				t.Fatalf("read %d after expiry: found %v, err %v", i, found, err)
			}
		}
		took := time.Since(began)
		if got, allowed := in.shops.Loads(missing)-loads-1, int64(took/nullTTL); got > allowed {
			t.Errorf("50 more reads within %s reached the database %d more times, want at most %d", took, got, allowed)
		}

		// Ids that cannot exist are refused before any I/O.
		calls := in.shops.Calls()
		for _, id := range []string{"0", "-3", "abc"} {
			wantCode(t, "shop("+id+")", in.client.Do(t, `query($id: ID!) { shop(id: $id) { id } }`, map[string]any{"id": id}), "BAD_USER_INPUT")
		}
		if got := in.shops.Calls(); got != calls {
			t.Errorf("impossible ids reached the database %d times", got-calls)
		}
	})
}

func TestShopCacheInvalidationReachesOtherInstance(t *testing.T) {
	t.Parallel()
	const admin = "13100007777"
	vars := requireSharedBackends(t)
	// A long L1 TTL: only the broadcast can make B drop its copy in time. The reads are
	// of the L1, not of the response cache in front of it.
	vars["CACHE_L1_TTL"] = "1m"
	vars["RESPONSE_CACHE_TTL"] = "0"
	vars["ADMIN_PHONES"] = admin
	cfg := shopCacheConfig(t, vars)
	a := startCounted(t, cfg, 0)
	b := startCounted(t, cfg, 0)
	const id = 3
	hc := concurrentHTTP(t, 2)

	old, found, err := shopName(hc, b.client.URL, id)
	if err != nil || !found {
		t.Fatalf("read shop %d on B: found %v, err %v", id, found, err)
	}
	l1Hits := func() float64 {
		return cacheCounter(t, b.svc, "dealspot_cache_hits_total", map[string]string{"cache": "shop", "layer": "l1"})
	}
	hitsBefore := l1Hits()
	if again, _, err := shopName(hc, b.client.URL, id); err != nil || again != old {
		t.Fatalf("second read on B: %q, %v", again, err)
	}
	if l1Hits() != hitsBefore+1 {
		t.Fatal("B did not serve the second read from its L1, so the test would prove nothing")
	}

	adm := a.client
	adm.Token = login(t, a.client, admin).AccessToken
	renamed := old + " · renamed " + testsupport.RandomSuffix(6)
	var updated struct{ UpdateShop struct{ Name string } }
	adm.Do(t, updateShop, map[string]any{"in": map[string]any{"id": strconv.Itoa(id), "name": renamed}}).Decode(t, &updated)
	changed := time.Now()
	if updated.UpdateShop.Name != renamed {
		t.Fatalf("updateShop returned name %q, want %q", updated.UpdateShop.Name, renamed)
	}

	deadline := changed.Add(time.Second)
	for {
		name, _, err := shopName(hc, b.client.URL, id)
		if err != nil {
			t.Fatalf("read on B: %v", err)
		}
		if name == renamed {
			t.Logf("B served the new name %s after the update", time.Since(changed).Round(time.Millisecond))
			return
		}
		if name != old {
			t.Fatalf("B served %q, neither the old nor the new name", name)
		}
		if time.Now().After(deadline) {
			t.Fatalf("B still serves the old name %q 1s after updateShop on A", name)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestShopCacheDisabledReadsDatabaseEveryTime(t *testing.T) {
	t.Parallel()
	in := startCounted(t, shopCacheConfig(t, map[string]string{"CACHE_ENABLED": "false"}), 0)
	hc := concurrentHTTP(t, 1)
	const existing, missing = 1, 999999
	for i := 1; i <= 30; i++ {
		if _, found, err := shopName(hc, in.client.URL, existing); err != nil || !found {
			t.Fatalf("read %d of shop %d: found %v, err %v", i, existing, found, err)
		}
		if _, found, err := shopName(hc, in.client.URL, missing); err != nil || found {
			t.Fatalf("read %d of missing shop: found %v, err %v", i, found, err)
		}
		if got := in.shops.Loads(existing); got != int64(i) {
			t.Fatalf("after %d reads shop %d was loaded %d times, want one load per read", i, existing, got)
		}
		if got := in.shops.Loads(missing); got != int64(i) {
			t.Fatalf("after %d reads the missing shop was looked up %d times, want one per read", i, got)
		}
	}
}
