package service_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/dealspot/dealspot/internal/app/shop"
	"github.com/dealspot/dealspot/internal/service"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// BenchmarkShopByID measures shop(id) for one hot shop through the whole HTTP handler
// (middleware, gqlgen, resolver, cache, repository), called in-process with a
// ResponseRecorder so that sockets add no noise. Its sub-benchmarks differ only in
// caching: L1 and Redis, Redis only, and none (every request reads the database). It
// uses PostgreSQL and a real Redis when TEST_DATABASE_URL / TEST_REDIS_URL are set, the
// embedded SQLite and Redis otherwise. Besides ns/op it reports req/s and dbq/10k, the
// database queries per 10,000 requests after warm-up.
func BenchmarkShopByID(b *testing.B) {
	shared := map[string]string{}
	backends := "PostgreSQL"
	if os.Getenv(testsupport.EnvPostgres) != "" {
		shared["DATABASE_URL"] = testsupport.PostgresURL(b)
	} else {
		backends = "embedded SQLite (" + testsupport.EnvPostgres + " not set)"
	}
	if os.Getenv(testsupport.EnvRedis) != "" {
		shared["REDIS_URL"] = testsupport.RedisURL(b)
		backends += ", real Redis"
	} else {
		backends += ", embedded Redis (" + testsupport.EnvRedis + " not set)"
	}
	modes := []struct {
		name string
		vars map[string]string
		// cached requests must not reach the database once warm
		cached bool
	}{
		{"L1_on", map[string]string{}, true},
		{"L1_off", map[string]string{"CACHE_L1_TTL": "0"}, true},
		{"cache_off", map[string]string{"CACHE_ENABLED": "false"}, false},
	}
	// Every mode's service is built before any is measured; with the real backends they
	// share the database and the Redis database.
	type built struct {
		svc   *service.Node
		shops *testsupport.CountingShops
	}
	services := make([]built, len(modes))
	for i, m := range modes {
		vars := map[string]string{}
		for k, v := range shared {
			vars[k] = v
		}
		for k, v := range m.vars {
			vars[k] = v
		}
		var counted *testsupport.CountingShops
		svc, err := service.New(context.Background(), shopCacheConfig(b, vars), slog.New(slog.DiscardHandler),
			service.WithShopRepository(func(r shop.Repository) shop.Repository {
				counted = testsupport.NewCountingShops(r, 0)
				return counted
			}))
		if err != nil {
			b.Fatalf("build service (%s): %v", m.name, err)
		}
		b.Cleanup(func() { _ = svc.Close() })
		services[i] = built{svc, counted}
	}

	body := []byte(`{"query":"query Shop($id: ID!) { shop(id: $id) { id name typeId address avgPrice score longitude latitude openHours } }","variables":{"id":"1"}}`)
	want := []byte(`"shop":{"id":"1"`)
	for i, m := range modes {
		h, shops := services[i].svc.Handler, services[i].shops
		serve := func(b *testing.B) {
			req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK || !bytes.Contains(rec.Body.Bytes(), want) {
				b.Fatalf("shop(id: 1): status %d, body %s", rec.Code, rec.Body.Bytes())
			}
		}
		b.Run(m.name, func(b *testing.B) {
			b.Logf("backends: %s", backends)
			for range 500 {
				serve(b)
			}
			before := shops.Calls()
			b.ReportAllocs()
			for b.Loop() {
				serve(b)
			}
			queries := shops.Calls() - before
			perTenK := float64(queries) * 10000 / float64(b.N)
			b.ReportMetric(perTenK, "dbq/10k")
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
			if m.cached && queries > 0 {
				b.Errorf("%s: %d database queries in %d hot requests, want none", m.name, queries, b.N)
			}
		})
	}
}
