package service_test

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"net/url"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"entgo.io/ent/dialect"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/service"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// faultOutage is how long a fault test keeps a service away; the stress build makes it
// longer.
var faultOutage = 3 * time.Second

// floodResult is what a timed flood saw.
type floodResult struct {
	mu       sync.Mutex
	accepted []int64
	refused  map[domain.Code]int
	// waits are how long each claim took to be answered, accepted or not.
	waits []time.Duration
	done  chan struct{}
}

// latency returns the median, 99th percentile and longest of the flood's answer times.
func (r *floodResult) latency() (p50, p99, longest time.Duration) {
	r.mu.Lock()
	w := slices.Clone(r.waits)
	r.mu.Unlock()
	if len(w) == 0 {
		return 0, 0, 0
	}
	slices.Sort(w)
	return w[len(w)/2], w[len(w)*99/100], w[len(w)-1]
}

// floodFor makes workers claim the voucher for random users until stop is closed.
func floodFor(svc *service.Node, voucherID int64, users, workers int, pause time.Duration, stop <-chan struct{}) *floodResult {
	res := &floodResult{refused: map[domain.Code]int{}, done: make(chan struct{})}
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				user := rand.Int64N(int64(users)) + 1
				began := time.Now()
				r, err := svc.App.Commands.ClaimVoucher.Handle(context.Background(), user, voucherID)
				res.mu.Lock()
				res.waits = append(res.waits, time.Since(began))
				if err != nil {
					res.refused[domain.ErrorCode(err)]++
				} else {
					res.accepted = append(res.accepted, r.OrderID)
				}
				res.mu.Unlock()
				time.Sleep(pause)
			}
		}()
	}
	go func() { wg.Wait(); close(res.done) }()
	return res
}

// wait blocks until the flood's workers have returned.
func (r *floodResult) wait() { <-r.done }

// checkAfterFault drains the sale and checks the invariants and that every accepted
// claim ended CREATED or FAILED.
func checkAfterFault(t *testing.T, svc *service.Node, v domain.Voucher, stock int64, res *floodResult) {
	t.Helper()
	a := drain(t, svc, v.ID)
	if a.Pending > 0 {
		reportStalledDrain(t, svc, a.Pending)
	}
	for _, bad := range a.Check(stock) {
		t.Error(bad)
	}
	seen := make(map[int64]bool, len(res.accepted))
	for _, id := range res.accepted {
		if seen[id] {
			t.Errorf("order id %d was answered to two claims", id)
		}
		seen[id] = true
	}
	created := 0
	for _, id := range res.accepted {
		o, err := svc.Store.Orders().Order(context.Background(), id)
		switch {
		case err != nil:
			t.Errorf("accepted claim %d has no order: %v", id, err)
		case o.Status == domain.OrderCreated:
			created++
		case o.Status != domain.OrderFailed:
			t.Errorf("accepted claim %d ended %s", id, o.Status)
		}
	}
	// A claim answered INTERNAL because Redis's reply was lost may still have been
	// reserved; the reconciler then completes it. Only such claims may add orders.
	if extra := a.Orders.Created - int64(created); extra < 0 || extra > int64(res.refused[domain.CodeInternal]) {
		t.Errorf("%d accepted claims are CREATED but the sale has %d orders (%d INTERNAL answers)",
			created, a.Orders.Created, res.refused[domain.CodeInternal])
	}
	p50, p99, longest := res.latency()
	t.Logf("accepted %d, created %d, refusals %v, answer time p50 %v p99 %v max %v, audit %+v",
		len(res.accepted), created, res.refused, p50.Round(time.Microsecond), p99.Round(time.Microsecond),
		longest.Round(time.Millisecond), a)
}

// outageStock is the stock of the sales the outage tests flood; it is never sold out
// within a test, so claims keep reaching the gate throughout.
const outageStock = 20000

// viaProxy puts a fault proxy in front of the service named by a URL and returns the
// proxy and the URL that goes through it.
func viaProxy(t *testing.T, raw string) (*testsupport.FaultProxy, string) {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	proxy := testsupport.StartFaultProxy(t, u.Host)
	u.Host = proxy.Addr()
	return proxy, u.String()
}

// floodThroughOutage builds the service from env, floods a sale, cuts the proxy for
// faultOutage in the middle, and returns the sale, the flood and how many claims were
// accepted during the cut.
func floodThroughOutage(t *testing.T, env map[string]string, proxy *testsupport.FaultProxy) (*service.Node, domain.Voucher, *floodResult, int) {
	t.Helper()
	env = merge(env, map[string]string{
		"CLAIM_RATE_PER_USER": "off", "RECONCILE_INTERVAL": "500ms", "RECONCILE_REPUBLISH_AFTER": "2s",
		// A write stuck on a connection around the cut is given up well within the drain.
		"ORDER_WRITE_TIMEOUT": "5s",
	})
	_, svc := startService(t, env)
	v := newSale(t, svc, outageStock)
	stop := make(chan struct{})
	res := floodFor(svc, v.ID, 50000, 8, 5*time.Millisecond, stop)
	accepted := func() int {
		res.mu.Lock()
		defer res.mu.Unlock()
		return len(res.accepted)
	}
	time.Sleep(300 * time.Millisecond)
	proxy.Cut()
	before := accepted()
	time.Sleep(faultOutage)
	during := accepted() - before
	proxy.Restore()
	time.Sleep(500 * time.Millisecond)
	close(stop)
	res.wait()
	return svc, v, res, during
}

func TestDatabaseOutageDuringFlood(t *testing.T) {
	t.Parallel()
	proxy, dbURL := viaProxy(t, testsupport.PostgresURL(t))
	svc, v, res, during := floodThroughOutage(t, map[string]string{"DATABASE_URL": dbURL}, proxy)
	if during == 0 {
		t.Error("no claim was accepted while the database was away: the claim path should not need it")
	}
	t.Logf("%d claims accepted while the database was away", during)
	checkAfterFault(t, svc, v, outageStock, res)
}

func TestRedisConnectionCutDuringFlood(t *testing.T) {
	t.Parallel()
	proxy, redisURL := viaProxy(t, testsupport.RedisURL(t))
	svc, v, res, _ := floodThroughOutage(t, map[string]string{"REDIS_URL": redisURL}, proxy)
	if res.refused[domain.CodeInternal] == 0 {
		t.Error("claims cannot be decided without Redis: some should have answered INTERNAL")
	}
	checkAfterFault(t, svc, v, outageStock, res)
}

func TestBrokerConnectionCutDuringFlood(t *testing.T) {
	t.Parallel()
	proxy, amqpURL := viaProxy(t, testsupport.Require(t, testsupport.EnvAMQP))
	env := queueEnv(t, "amqp")
	env["AMQP_URL"] = amqpURL
	svc, v, res, _ := floodThroughOutage(t, env, proxy)
	checkAfterFault(t, svc, v, outageStock, res)
}

// flakyPublisher fails a share of publishes before sending them (known not queued).
type flakyPublisher struct {
	seckill.ClaimPublisher
	share  float64
	failed atomic.Int64
}

func (p *flakyPublisher) PublishClaim(ctx context.Context, c domain.Claim) error {
	if rand.Float64() < p.share {
		p.failed.Add(1)
		return fmt.Errorf("no connection to the broker: %w", seckill.ErrNotEnqueued)
	}
	return p.ClaimPublisher.PublishClaim(ctx, c)
}

func TestFivePercentOfPublishesFail(t *testing.T) {
	t.Parallel()
	for _, backend := range []string{"memory", "amqp", "kafka"} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			pub := &flakyPublisher{share: 0.05}
			env := merge(queueEnv(t, backend), map[string]string{"CLAIM_RATE_PER_USER": "off"})
			if backend != "memory" {
				env["REDIS_URL"] = testsupport.RedisURL(t)
			}
			_, svc := startService(t, env, service.WithClaimPublisher(func(p seckill.ClaimPublisher) seckill.ClaimPublisher {
				pub.ClaimPublisher = p
				return pub
			}))
			const stock = 200
			v := newSale(t, svc, stock)
			stop := make(chan struct{})
			res := floodFor(svc, v.ID, 1000, 16, time.Millisecond, stop)
			deadline := time.Now().Add(20 * time.Second)
			for {
				a, _ := svc.Ops.Reconciler.Audit(context.Background(), v.ID)
				if (a.RedisLoaded && a.RedisStock == 0) || time.Now().After(deadline) {
					break
				}
				time.Sleep(50 * time.Millisecond)
			}
			close(stop)
			res.wait()
			if pub.failed.Load() == 0 {
				t.Fatal("no publish failed")
			}
			if got := res.refused[domain.CodeInternal]; int64(got) != pub.failed.Load() {
				t.Errorf("%d publishes failed but %d claims answered INTERNAL", pub.failed.Load(), got)
			}
			checkAfterFault(t, svc, v, stock, res)
			if len(res.accepted) != stock {
				t.Errorf("accepted %d claims for a stock of %d: failed publishes must give their unit back", len(res.accepted), stock)
			}
		})
	}
}

// reportStalledDrain logs what the order pipeline is doing when accepted claims are still
// waiting for their orders after drain gave up: the database pool, the queue, and the
// goroutines in the queue consumer, the order writer and the store, so that a failure
// names where the claims stopped.
func reportStalledDrain(t *testing.T, svc *service.Node, pending int) {
	t.Helper()
	st := svc.Store.DB().Stats()
	t.Logf("%d claims still pending; database pool: open %d in use %d idle %d, waited %d times (%v), max open %d",
		pending, st.OpenConnections, st.InUse, st.Idle, st.WaitCount, st.WaitDuration, st.MaxOpenConnections)
	if svc.Queue != nil {
		depth, err := svc.Queue.Depth(context.Background())
		t.Logf("queue: depth %+v (error %v), dead letters %d", depth, err, svc.Queue.DeadLetters())
	}
	if svc.Store.Dialect() == dialect.Postgres {
		reportBackends(t, svc.Store.DB())
	}
	buf := make([]byte, 32<<20)
	buf = buf[:runtime.Stack(buf, true)]
	seen := map[string]int{}
	var order []string
	for _, g := range bytes.Split(buf, []byte("\n\n")) {
		if !bytes.Contains(g, []byte("adapters/queue")) && !bytes.Contains(g, []byte("adapters/entstore")) &&
			!bytes.Contains(g, []byte("app/seckill")) && !bytes.Contains(g, []byte("database/sql")) {
			continue
		}
		_, stack, _ := strings.Cut(string(g), "\n")
		if seen[stack] == 0 {
			order = append(order, string(g))
		}
		seen[stack]++
	}
	for _, g := range order {
		_, stack, _ := strings.Cut(g, "\n")
		t.Logf("(%d like this) %s", seen[stack], g)
	}
}

// reportBackends logs the database's server processes: what each runs or waits for, and
// which processes block it, so that a claim stuck in the database names its holder.
func reportBackends(t *testing.T, db *sql.DB) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	rows, err := db.QueryContext(ctx, `SELECT pid, coalesce(state, ''), coalesce(wait_event_type, ''),
		coalesce(wait_event, ''), coalesce(now() - xact_start, interval '0'), pg_blocking_pids(pid)::text, left(query, 120)
		FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() ORDER BY xact_start NULLS LAST`)
	if err != nil {
		t.Logf("database processes: %v", err)
		return
	}
	defer rows.Close()
	for rows.Next() {
		var (
			pid                             int
			state, waitType, wait, blockers string
			inTx                            string
			query                           string
		)
		if err := rows.Scan(&pid, &state, &waitType, &wait, &inTx, &blockers, &query); err != nil {
			t.Logf("database processes: %v", err)
			return
		}
		t.Logf("database process %d: %s, waiting %s/%s, transaction open %s, blocked by %s: %s", pid, state, waitType, wait, inTx, blockers, query)
	}
}
