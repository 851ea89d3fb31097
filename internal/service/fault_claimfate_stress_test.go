//go:build stress

package service_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/service"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// cancellingFlood makes workers claim the sale for random users until the sale is sold
// out in Redis or the deadline passes; half the requests are cancelled by their client a
// few milliseconds in. It returns the claims answered with an order id.
func cancellingFlood(t *testing.T, svc *service.Node, voucherID int64, users, workers int, during func()) (map[int64]int64, map[domain.Code]int) {
	t.Helper()
	var (
		mu       sync.Mutex
		accepted = map[int64]int64{} // order id -> user
		refused  = map[domain.Code]int{}
		wg       sync.WaitGroup
		soldOut  atomic.Bool
	)
	deadline := time.Now().Add(60 * time.Second)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !soldOut.Load() && time.Now().Before(deadline) {
				user := rand.Int64N(int64(users)) + 1
				ctx, cancel := context.Background(), context.CancelFunc(func() {})
				if rand.IntN(2) == 0 {
					ctx, cancel = context.WithTimeout(ctx, time.Duration(1+rand.IntN(5))*time.Millisecond)
				}
				res, err := svc.App.Commands.ClaimVoucher.Handle(ctx, user, voucherID)
				cancel()
				if domain.ErrorCode(err) == domain.CodeSoldOut {
					soldOut.Store(true)
				}
				mu.Lock()
				if err != nil {
					refused[domain.ErrorCode(err)]++
				} else {
					accepted[res.OrderID] = user
				}
				mu.Unlock()
			}
		}()
	}
	if during != nil {
		during()
	}
	for !soldOut.Load() && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		if a, err := svc.Ops.Reconciler.Audit(context.Background(), voucherID); err == nil && a.RedisLoaded && a.RedisStock == 0 {
			soldOut.Store(true)
		}
	}
	soldOut.Store(true)
	wg.Wait()
	return accepted, refused
}

// checkClaimFate drains the sale (the reconciler completes claims whose outcome was
// unknown) and checks I1–I4, that Redis agrees with the database (stock and holders),
// that every claim answered with an order id ended CREATED, and that no order FAILED
// while the sale had stock.
func checkClaimFate(t *testing.T, svc *service.Node, v domain.Voucher, stock int64, accepted map[int64]int64, refused map[domain.Code]int) {
	t.Helper()
	ctx := context.Background()
	a := drain(t, svc, v.ID)
	if _, err := svc.Ops.Reconciler.Reconcile(ctx, svc.ReconcileConfig()); err != nil {
		t.Errorf("reconcile: %v", err)
	}
	a, err := svc.Ops.Reconciler.Audit(ctx, v.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range a.Check(stock) {
		t.Error(bad)
	}
	if a.RedisStock != a.DBStock {
		t.Errorf("Redis stock %d, database stock %d", a.RedisStock, a.DBStock)
	}
	if got, want := redisHolders(t, svc, v.ID), dbHolders(t, svc, v.ID); !slices.Equal(got, want) {
		t.Errorf("holders: %d in Redis, %d users with orders", len(got), len(want))
	}
	if a.Orders.Failed != 0 {
		t.Errorf("%d orders FAILED (database stock %d): an accepted claim must not fail while the sale has stock", a.Orders.Failed, a.DBStock)
	}
	// A claim answered INTERNAL (cancelled while Redis ran the gate) may have been
	// reserved; the reconciler completes it. Only those may add orders.
	if extra := a.Orders.Created - int64(len(accepted)); extra < 0 || extra > int64(refused[domain.CodeInternal]) {
		t.Errorf("%d claims answered with an order id, %d orders, %d INTERNAL answers", len(accepted), a.Orders.Created, refused[domain.CodeInternal])
	}
	users := map[int64]int64{}
	for id, user := range accepted {
		if prev, dup := users[user]; dup {
			t.Errorf("user %d was answered two order ids (%d, %d)", user, prev, id)
		}
		users[user] = id
		o, err := svc.Store.Orders().Order(ctx, id)
		if err != nil || o.Status != domain.OrderCreated || o.UserID != user {
			t.Errorf("accepted claim %d of user %d: %+v, %v; want CREATED", id, user, o, err)
		}
	}
	t.Logf("accepted %d, refusals %v, audit %+v", len(accepted), refused, a)
}

// claimFateStressEnv is the service on PostgreSQL, Redis and RabbitMQ, with a reconciler
// that completes claims left without an order within seconds.
func claimFateStressEnv(t *testing.T) map[string]string {
	t.Helper()
	return merge(queueEnv(t, "amqp"), map[string]string{
		"DATABASE_URL": testsupport.PostgresURL(t), "REDIS_URL": testsupport.RedisURL(t),
		"CLAIM_RATE_PER_USER": "off", "RECONCILE_INTERVAL": "500ms",
		"RECONCILE_REPUBLISH_AFTER": "2s", "RECONCILE_FAIL_AFTER": "2m", "CLAIM_PUBLISH_TIMEOUT": "3s",
	})
}

// Clients cancelling half their claims a few milliseconds in change nothing about the
// claims: every one answered with an order id ends CREATED, nobody gets two, and Redis
// ends where the database is.
func TestClaimFateClientsCancelOverAMQP(t *testing.T) {
	t.Parallel()
	_, svc := startService(t, claimFateStressEnv(t))
	const stock = 1000
	v := newSale(t, svc, stock)
	accepted, refused := cancellingFlood(t, svc, v.ID, 3000, 16, nil)
	checkClaimFate(t, svc, v, stock, accepted, refused)
	// A client that gives up while Redis decides does not leave a reservation behind an
	// error: every order is a claim answered with its id.
	if a, err := svc.Ops.Reconciler.Audit(context.Background(), v.ID); err != nil || a.Orders.Created != int64(len(accepted)) {
		t.Errorf("%d orders for %d claims answered with an order id (%v)", a.Orders.Created, len(accepted), err)
	}
}

// The same with the broker cut away for a while mid-flood: publishes that were never
// sent are undone, those whose confirm was lost stay reserved and are completed.
func TestClaimFateBrokerCutOverAMQP(t *testing.T) {
	t.Parallel()
	env := claimFateStressEnv(t)
	proxy, amqpURL := viaProxy(t, env["AMQP_URL"])
	env["AMQP_URL"] = amqpURL
	_, svc := startService(t, env)
	const stock = 1000
	v := newSale(t, svc, stock)
	accepted, refused := cancellingFlood(t, svc, v.ID, 3000, 16, func() {
		time.Sleep(30 * time.Millisecond) // the sale sells out within a second or two
		proxy.Cut()
		time.Sleep(2 * time.Second)
		proxy.Restore()
	})
	checkClaimFate(t, svc, v, stock, accepted, refused)
}
