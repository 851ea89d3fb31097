package service_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/service"
)

// scrape returns the body of the service's /metrics.
func scrape(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("/metrics: %d %v", resp.StatusCode, err)
	}
	return string(raw)
}

// seriesWithPrefix returns the sample lines of body that start with prefix.
func seriesWithPrefix(body, prefix string) []string {
	var out []string
	for _, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(line, prefix) {
			out = append(out, line)
		}
	}
	return out
}

// waitMetric scrapes until the series reaches at least want.
func waitMetric(t *testing.T, url, series string, want float64) string {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		body := scrape(t, url)
		if strings.Contains(body, series+" ") && metricValue(t, body, series) >= want {
			return body
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not reach %v:\n%s", series, want, grepLines(body, "dealspot_"))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// The metrics an operator watches during a sale move with what happens: claims by
// outcome, orders written, a dead letter and the order it failed, a reconciler repair;
// the pools and the build are reported.
func TestOperatorMetricsMove(t *testing.T) {
	t.Parallel()
	const poisonUser = 7
	var poisoned atomic.Int64
	srv, svc := startService(t, map[string]string{
		"CLAIM_RATE_PER_USER": "off", "RECONCILE_INTERVAL": "0", "ORDER_MAX_RETRIES": "1",
	}, service.WithOrderHandler(func(next service.OrderHandler) service.OrderHandler {
		return func(ctx context.Context, claims []domain.Claim) error {
			for _, c := range claims {
				if c.UserID == poisonUser {
					poisoned.Add(1)
					return errors.New("poison claim")
				}
			}
			return next(ctx, claims)
		}
	}))
	ctx := context.Background()
	before := scrape(t, srv.URL)
	for _, outcome := range []string{"accepted", "sold_out", "already_claimed", "not_started", "ended", "rate_limited", "refused", "error"} {
		if v := metricValue(t, before, `dealspot_claims_total{outcome="`+outcome+`"}`); v != 0 {
			t.Errorf("claims %s before any claim = %v", outcome, v)
		}
	}

	one := newSale(t, svc, 1)
	res, err := svc.App.Commands.ClaimVoucher.Handle(ctx, 1, one.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.App.Commands.ClaimVoucher.Handle(ctx, 2, one.ID); !errors.Is(err, domain.ErrSoldOut) {
		t.Fatalf("second claim of a one-unit sale: %v, want SOLD_OUT", err)
	}
	if _, err := svc.App.Commands.ClaimVoucher.Handle(ctx, 1, one.ID); !errors.Is(err, domain.ErrAlreadyClaimed) {
		t.Fatalf("the holder claims again: %v, want ALREADY_CLAIMED", err)
	}
	if _, err := svc.App.Commands.ClaimVoucher.Handle(ctx, 1, 1<<40); domain.ErrorCode(err) != domain.CodeNotFound {
		t.Fatalf("unknown voucher: %v", err)
	}
	body := waitMetric(t, srv.URL, "dealspot_orders_written_total", 1)
	if o, err := svc.Store.Orders().Order(ctx, res.OrderID); err != nil || o.Status != domain.OrderCreated {
		t.Fatalf("order %d: %+v %v", res.OrderID, o, err)
	}
	for series, want := range map[string]float64{
		`dealspot_claims_total{outcome="accepted"}`:        1,
		`dealspot_claims_total{outcome="sold_out"}`:        1,
		`dealspot_claims_total{outcome="already_claimed"}`: 1,
		`dealspot_claims_total{outcome="refused"}`:         1,
		`dealspot_claims_total{outcome="error"}`:           0,
		`dealspot_orders_written_total`:                    1,
	} {
		if got := metricValue(t, body, series); got != want {
			t.Errorf("%s = %v, want %v", series, got, want)
		}
	}

	// A claim whose order cannot be written ends in the dead letter, its order FAILED.
	other := newSale(t, svc, 5)
	if _, err := svc.App.Commands.ClaimVoucher.Handle(ctx, poisonUser, other.ID); err != nil {
		t.Fatal(err)
	}
	waitMetric(t, srv.URL, `dealspot_queue_dead_letters_total{backend="memory"}`, 1)
	body = waitMetric(t, srv.URL, `dealspot_orders_failed_total{reason="poison"}`, 1)
	if poisoned.Load() == 0 {
		t.Error("the poison claim never reached the handler")
	}
	if got := metricValue(t, body, `dealspot_order_write_errors_total`); got != 0 {
		// The wrapper fails before the writer runs: the writer saw no failed batch.
		t.Errorf("order write errors = %v, want 0", got)
	}

	// Redis's stock drifts above the database's: the reconciler repairs it.
	if err := svc.Redis.Client.Set(ctx, saleKey(svc, one.ID, "stock"), 5, 0).Err(); err != nil {
		t.Fatal(err)
	}
	rep, err := svc.Ops.Reconciler.Reconcile(ctx, svc.ReconcileConfig())
	if err != nil || rep.StockRepaired != 1 {
		t.Fatalf("reconcile: %+v, %v; want one stock repaired", rep, err)
	}
	body = scrape(t, srv.URL)
	if got := metricValue(t, body, `dealspot_reconciler_repairs_total{kind="stock"}`); got != 1 {
		t.Errorf("stock repairs = %v, want 1", got)
	}
	if got := metricValue(t, body, `dealspot_reconciler_passes_total`); got != 1 {
		t.Errorf("reconcile passes = %v, want 1", got)
	}

	// The queue's depth, the pools and the build.
	if got := seriesWithPrefix(body, `dealspot_queue_depth{backend="memory"`); len(got) != 1 {
		t.Errorf("queue depth series: %q", got)
	}
	db := `{db_name="` + svc.Store.Dialect() + `"}`
	if got := metricValue(t, body, `go_sql_open_connections`+db); got < 1 {
		t.Errorf("open database connections = %v", got)
	}
	for _, series := range []string{`go_sql_in_use_connections` + db, `go_sql_idle_connections` + db,
		`go_sql_wait_count_total` + db, `go_sql_wait_duration_seconds_total` + db,
		`dealspot_redis_pool_misses_total{pool="main"}`, `dealspot_redis_pool_timeouts_total{pool="main"}`,
		`dealspot_redis_pool_idle_connections{pool="main"}`} {
		metricValue(t, body, series)
	}
	if got := metricValue(t, body, `dealspot_redis_pool_connections{pool="main"}`); got < 1 {
		t.Errorf("redis pool connections = %v", got)
	}
	if got := metricValue(t, body, `dealspot_redis_pool_hits_total{pool="main"}`); got < 1 {
		t.Errorf("redis pool hits = %v", got)
	}
	info := seriesWithPrefix(body, "dealspot_build_info{")
	if len(info) != 1 || !strings.Contains(info[0], `go_version="`+runtime.Version()+`"`) ||
		!strings.Contains(info[0], `revision="`) || !strings.Contains(info[0], `version="`) || !strings.HasSuffix(info[0], " 1") {
		t.Errorf("build info: %q", info)
	}
}

// On Redis Streams the depth of every shard stream is read at scrape time: claims the
// consumer has not read show as waiting.
func TestQueueDepthOfRedisStreams(t *testing.T) {
	t.Parallel()
	redisBackends(t, func(t *testing.T, env map[string]string) {
		env["QUEUE"] = "redis"
		env["ORDER_CONSUMER"] = "false"
		env["CLAIM_RATE_PER_USER"] = "off"
		env["RECONCILE_INTERVAL"] = "0"
		srv, svc := startService(t, env)
		v := newSale(t, svc, 10)
		for u := int64(1); u <= 3; u++ {
			if _, err := svc.App.Commands.ClaimVoucher.Handle(context.Background(), u, v.ID); err != nil {
				t.Fatal(err)
			}
		}
		body := scrape(t, srv.URL)
		lines := seriesWithPrefix(body, `dealspot_queue_depth{backend="redis"`)
		if len(lines) != svc.Config.Seckill.Shards {
			t.Fatalf("depth series %q, want one per shard (%d)", lines, svc.Config.Seckill.Shards)
		}
		total := 0.0
		for _, l := range lines {
			total += metricValue(t, body, l[:strings.LastIndex(l, " ")])
		}
		if total != 3 {
			t.Errorf("claims waiting in the streams = %v, want 3:\n%s", total, strings.Join(lines, "\n"))
		}
		if got := seriesWithPrefix(body, `dealspot_queue_in_flight{backend="redis"`); len(got) != len(lines) {
			t.Errorf("in-flight series %q", got)
		}
	})
}
