package service_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/dealspot/dealspot/internal/service"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// BenchmarkClaimPath measures what one claimVoucher request costs the server, through
// the whole HTTP handler (middleware, authentication, gqlgen, resolver, gate), called
// in-process with a ResponseRecorder so that sockets and a load generator add no noise.
// Sub-benchmarks:
//   - baseline: `mutation Baseline { __typename }` with the same token, the framework's
//     share of every request;
//   - sold_out: a claim on a sale that has sold out, answered from the local mark;
//   - already_claimed: a claim by a user who holds the voucher; every one runs the gate
//     script in Redis.
//
// It uses PostgreSQL and a real Redis when TEST_DATABASE_URL / TEST_REDIS_URL are set,
// the embedded SQLite and Redis otherwise; run it with -benchmem (allocs/op is the
// figure that profiling the claim path works on) and -cpuprofile / -memprofile.
func BenchmarkClaimPath(b *testing.B) { benchmarkClaimPath(b) }

// BenchmarkClaimPathTraced is BenchmarkClaimPath with every operation traced (sample
// ratio 1) into a batching provider whose exporter drops the spans: what tracing on
// costs a request, against BenchmarkClaimPath's tracing off.
func BenchmarkClaimPathTraced(b *testing.B) {
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(tracetest.NewNoopExporter()))
	b.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	benchmarkClaimPath(b, service.WithTracerProvider(tp))
}

func benchmarkClaimPath(b *testing.B, opts ...service.Option) {
	const adminPhone = "13700000001"
	env := map[string]string{"JWT_SECRET": testSecret, "ADMIN_PHONES": adminPhone, "CLAIM_RATE_PER_USER": "off"}
	// CLAIM_FAST_PATH=false in the environment measures the claims through gqlgen.
	if v := os.Getenv("CLAIM_FAST_PATH"); v != "" {
		env["CLAIM_FAST_PATH"] = v
	}
	backends := "PostgreSQL"
	if os.Getenv(testsupport.EnvPostgres) != "" {
		env["DATABASE_URL"] = testsupport.PostgresURL(b)
	} else {
		backends = "embedded SQLite (" + testsupport.EnvPostgres + " not set)"
	}
	if os.Getenv(testsupport.EnvRedis) != "" {
		env["REDIS_URL"] = testsupport.RedisURL(b)
		backends += ", real Redis"
	} else {
		backends += ", embedded Redis (" + testsupport.EnvRedis + " not set)"
	}
	srv, svc := startService(b, env, opts...)
	anon := client(srv)
	admin := client(srv)
	admin.Token = login(b, anon, adminPhone).AccessToken
	user := client(srv)
	user.Token = login(b, anon, "13700000002").AccessToken
	other := client(srv)
	other.Token = login(b, anon, "13700000003").AccessToken

	now := time.Now()
	soldOut := createFlashSale(b, admin, 1, now.Add(-time.Minute), now.Add(time.Hour))
	held := createFlashSale(b, admin, 1_000_000, now.Add(-time.Minute), now.Add(time.Hour))
	for _, c := range []struct {
		who  testsupport.GraphQLClient
		sale string
	}{{other, soldOut}, {user, held}} {
		var a claimAnswer
		c.who.Do(b, claimMutation, map[string]any{"v": c.sale}).Decode(b, &a)
		if a.ClaimVoucher.Status != "PENDING" {
			b.Fatalf("first claim on %s = %+v", c.sale, a)
		}
	}

	claimBody := func(sale string) []byte {
		body, _ := json.Marshal(map[string]any{"query": claimMutation, "variables": map[string]any{"v": sale}})
		return body
	}
	cases := []struct {
		name string
		body []byte
		want []byte
	}{
		{"baseline", []byte(`{"query":"mutation Baseline { __typename }"}`), []byte(`"__typename":"Mutation"`)},
		{"sold_out", claimBody(soldOut), []byte(`"code":"SOLD_OUT"`)},
		{"already_claimed", claimBody(held), []byte(`"code":"ALREADY_CLAIMED"`)},
	}
	auth := "Bearer " + user.Token
	for _, c := range cases {
		serve := func(b *testing.B) {
			req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(c.body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", auth)
			rec := httptest.NewRecorder()
			svc.Handler.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK || !bytes.Contains(rec.Body.Bytes(), c.want) {
				b.Errorf("%s: status %d, body %s", c.name, rec.Code, rec.Body.Bytes())
			}
		}
		b.Run(c.name, func(b *testing.B) {
			b.Logf("backends: %s", backends)
			for range 200 {
				serve(b)
			}
			b.ReportAllocs()
			// Many requests at once, as in a flood: the gate coalesces concurrent calls.
			b.SetParallelism(32)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					serve(b)
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
		})
	}
}
