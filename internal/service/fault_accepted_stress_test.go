//go:build stress

package service_test

import (
	"context"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/service"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// TestAcceptedClaimsOutliveARedisWipe wipes Redis twice under a claim flood while
// clients keep looking up claims they were answered, and checks what the clients see:
//   - QUEUE=amqp: the claims still queued stay PENDING (never NOT_FOUND) until written,
//     and every one ends CREATED or FAILED;
//   - QUEUE=redis on a Redis without persistence (ALLOW_VOLATILE_QUEUE): the claims not
//     yet written are lost with Redis, and each ends FAILED with reason LOST — none is
//     left without an order.
//
// In both, I1–I4 hold once the queue has drained and the reconciler has run. The consumer
// is slowed down during the flood so that many claims are in flight at each wipe.
func TestAcceptedClaimsOutliveARedisWipe(t *testing.T) {
	t.Parallel()
	for _, queue := range []string{"amqp", "redis"} {
		t.Run(queue, func(t *testing.T) {
			t.Parallel()
			env := merge(queueEnv(t, queue), map[string]string{
				"JWT_SECRET": testSecret, "CLAIM_RATE_PER_USER": "off", "ALLOW_VOLATILE_QUEUE": "true",
				"DATABASE_URL": testsupport.PostgresURL(t), "REDIS_URL": testsupport.RedisURL(t),
				"RECONCILE_INTERVAL": "500ms", "RECONCILE_REPUBLISH_AFTER": "5s", "RECONCILE_FAIL_AFTER": "2m",
			})
			// While the flood runs the consumer writes one batch at a time, 20 ms each, so
			// that thousands of accepted claims are still on their way at each wipe.
			var (
				slow    atomic.Bool
				writing sync.Mutex
			)
			slow.Store(true)
			_, svc := startService(t, env, service.WithOrderHandler(func(next service.OrderHandler) service.OrderHandler {
				return func(ctx context.Context, claims []domain.Claim) error {
					if slow.Load() {
						writing.Lock()
						time.Sleep(20 * time.Millisecond)
						writing.Unlock()
					}
					return next(ctx, claims)
				}
			}))
			ctx := context.Background()
			const stock = outageStock
			sale := newSale(t, svc, stock)

			var (
				mu       sync.Mutex
				accepted = map[int64]int64{} // order id -> user
				ids      []int64
				refused  = map[domain.Code]int{}
				stop     = make(chan struct{})
				wg       sync.WaitGroup
			)
			for range 6 {
				wg.Go(func() {
					for {
						select {
						case <-stop:
							return
						default:
						}
						user := rand.Int64N(50_000) + 1
						res, err := svc.App.Commands.ClaimVoucher.Handle(ctx, user, sale.ID)
						mu.Lock()
						if err != nil {
							refused[domain.ErrorCode(err)]++
						} else {
							accepted[res.OrderID] = user
							ids = append(ids, res.OrderID)
						}
						mu.Unlock()
					}
				})
			}
			// Clients look up claims answered lately, as a client polls order(id).
			var lookups, notFound atomic.Int64
			for range 2 {
				wg.Go(func() {
					for {
						select {
						case <-stop:
							return
						default:
						}
						mu.Lock()
						if len(ids) == 0 {
							mu.Unlock()
							time.Sleep(time.Millisecond)
							continue
						}
						id := ids[len(ids)-1-rand.IntN(min(len(ids), 2000))]
						user := accepted[id]
						mu.Unlock()
						_, found, err := svc.App.Queries.Orders.Order(ctx, user, id)
						if err == nil {
							lookups.Add(1)
							if !found {
								notFound.Add(1)
							}
						}
					}
				})
			}
			var lastWipe time.Time
			for range 2 {
				time.Sleep(2 * time.Second)
				if err := svc.Redis.Client.FlushDB(ctx).Err(); err != nil {
					t.Fatal(err)
				}
				lastWipe = time.Now()
			}
			time.Sleep(2 * time.Second)
			close(stop)
			wg.Wait()
			slow.Store(false)
			// How long after the last wipe every accepted claim has its order (CREATED or
			// FAILED) in the database.
			var settled time.Duration
			for {
				a, err := svc.Ops.Reconciler.Audit(ctx, sale.ID)
				if err != nil {
					t.Fatal(err)
				}
				if a.Orders.Created+a.Orders.Failed >= int64(len(accepted)) {
					settled = time.Since(lastWipe)
					break
				}
				if time.Since(lastWipe) > 2*time.Minute {
					t.Fatalf("2 min after the last wipe, %d of %d accepted claims have an order", a.Orders.Created+a.Orders.Failed, len(accepted))
				}
				time.Sleep(100 * time.Millisecond)
			}

			if n := notFound.Load(); n > 0 {
				t.Errorf("%d of %d look-ups of claims answered with an order id found no order (null / NOT_FOUND)", n, lookups.Load())
			}
			var created, failed, lost int
			for id, user := range accepted {
				deadline := time.Now().Add(60 * time.Second)
				for {
					o, found, err := svc.App.Queries.Orders.Order(ctx, user, id)
					if err != nil {
						t.Fatal(err)
					}
					if !found {
						t.Fatalf("accepted claim %d of user %d has no order after the wipes (null)", id, user)
					}
					if o.Status == domain.OrderPending && time.Now().Before(deadline) {
						time.Sleep(50 * time.Millisecond)
						continue
					}
					switch {
					case o.Status == domain.OrderCreated:
						created++
					case o.Status == domain.OrderFailed && o.FailReason == domain.FailLost:
						lost++
					case o.Status == domain.OrderFailed:
						failed++
					default:
						t.Errorf("accepted claim %d of user %d ended %s", id, user, o.Status)
					}
					break
				}
			}
			drain(t, svc, sale.ID)
			reconcileUntilQuiet(t, svc)
			a := drain(t, svc, sale.ID)
			for _, bad := range a.Check(stock) {
				t.Error(bad)
			}
			if refused[domain.CodeInternal] == 0 && (a.Orders.Created != int64(created) || a.Orders.Failed != int64(lost+failed)) {
				t.Errorf("the sale has %d orders CREATED and %d FAILED; its accepted claims ended %d CREATED, %d FAILED", a.Orders.Created, a.Orders.Failed, created, lost+failed)
			}
			if queue != "redis" && lost > 0 {
				t.Errorf("%d claims recorded LOST with QUEUE=%s, which keeps them", lost, queue)
			}
			t.Logf("QUEUE=%s: accepted %d: CREATED %d, FAILED LOST %d, FAILED otherwise %d (every one with its order %v after the last wipe); lookups %d, not found %d; refusals %v; audit %+v",
				queue, len(accepted), created, lost, failed, settled.Round(100*time.Millisecond), lookups.Load(), notFound.Load(), refused, a)
		})
	}
}
