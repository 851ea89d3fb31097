package service_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/service"
)

func newSale(t *testing.T, svc *service.Node, stock int64) domain.Voucher {
	t.Helper()
	v, err := svc.App.Commands.FlashSales.CreateFlashSale(context.Background(), domain.Operator, seckill.FlashSaleInput{
		VoucherInput: seckill.VoucherInput{ShopID: 1, Title: "recovery", PayValue: 1, ActualValue: 100},
		Stock:        stock, BeginTime: time.Now().Add(-time.Minute), EndTime: time.Now().Add(time.Hour),
	})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestRedisFlushedMidSaleIsRebuiltFromTheDatabase(t *testing.T) {
	t.Parallel()
	redisBackends(t, func(t *testing.T, env map[string]string) {
		env["CLAIM_RATE_PER_USER"] = "off"
		env["RECONCILE_INTERVAL"] = "0"
		_, svc := startService(t, env)
		ctx := context.Background()
		v := newSale(t, svc, 100)
		first, _ := flood(t, svc, v.ID, 50, 2)
		drain(t, svc, v.ID)
		if err := svc.Redis.Client.FlushDB(ctx).Err(); err != nil {
			t.Fatal(err)
		}
		// The claim path notices the missing sale by itself and reloads it; so does the
		// reconciler. Either way the rebuilt state comes from the database.
		rep, err := svc.Ops.Reconciler.Reconcile(ctx, svc.ReconcileConfig())
		if err != nil || rep.SalesLoaded == 0 {
			t.Fatalf("reconcile after flush: %+v, %v", rep, err)
		}
		a, _ := svc.Ops.Reconciler.Audit(ctx, v.ID)
		if a.RedisStock != 50 || a.RedisHolders != 50 {
			t.Fatalf("rebuilt sale: %+v; want stock 50 and the 50 holders back", a)
		}
		// The first 50 users still hold their voucher; new users take the rest.
		again, refused := flood(t, svc, v.ID, 250, 2)
		if len(first) != 50 || len(again) != 50 {
			t.Errorf("accepted %d before and %d after the flush (refusals %v), want 50 and 50", len(first), len(again), refused)
		}
		a = drain(t, svc, v.ID)
		if bad := a.Check(100); len(bad) > 0 || a.Orders.Created != 100 {
			t.Fatalf("audit %+v: %v", a, bad)
		}
	})
}

// droppingPublisher loses the first publish of each claim (reporting success), or every
// publish while always is set.
type droppingPublisher struct {
	seckill.ClaimPublisher
	mu     sync.Mutex
	always bool
	seen   map[int64]bool
}

func (p *droppingPublisher) PublishClaim(ctx context.Context, c domain.Claim) error {
	p.mu.Lock()
	drop := p.always || !p.seen[c.OrderID]
	p.seen[c.OrderID] = true
	p.mu.Unlock()
	if drop {
		return nil
	}
	return p.ClaimPublisher.PublishClaim(ctx, c)
}

func TestReconcilerRepublishesLostClaims(t *testing.T) {
	t.Parallel()
	pub := &droppingPublisher{seen: map[int64]bool{}}
	_, svc := startService(t, map[string]string{
		"CLAIM_RATE_PER_USER": "off", "RECONCILE_INTERVAL": "0",
		"RECONCILE_REPUBLISH_AFTER": "1ms", "RECONCILE_FAIL_AFTER": "1h",
	}, service.WithClaimPublisher(func(p seckill.ClaimPublisher) seckill.ClaimPublisher {
		pub.ClaimPublisher = p
		return pub
	}))
	ctx := context.Background()
	v := newSale(t, svc, 30)
	accepted, _ := flood(t, svc, v.ID, 40, 1)
	time.Sleep(50 * time.Millisecond)
	if a, _ := svc.Ops.Reconciler.Audit(ctx, v.ID); a.Pending != 30 || a.Orders.Created != 0 {
		t.Fatalf("with every message lost: %+v; want 30 pending, no orders", a)
	}
	rep, err := svc.Ops.Reconciler.Reconcile(ctx, svc.ReconcileConfig())
	if err != nil || rep.Republished != 30 {
		t.Fatalf("reconcile: %+v %v; want 30 republished", rep, err)
	}
	a := drain(t, svc, v.ID)
	if bad := a.Check(30); len(bad) > 0 || a.Orders.Created != 30 || len(accepted) != 30 {
		t.Fatalf("audit %+v: %v", a, bad)
	}
	for _, id := range accepted {
		if o, err := svc.Store.Orders().Order(ctx, id); err != nil || o.Status != domain.OrderCreated {
			t.Errorf("order %d: %+v %v", id, o, err)
		}
	}
}

func TestReconcilerGivesUpClaimsThatNeverArrive(t *testing.T) {
	t.Parallel()
	pub := &droppingPublisher{seen: map[int64]bool{}, always: true}
	_, svc := startService(t, map[string]string{
		"CLAIM_RATE_PER_USER": "off", "RECONCILE_INTERVAL": "0",
		"RECONCILE_REPUBLISH_AFTER": "1ms", "RECONCILE_FAIL_AFTER": "200ms",
	}, service.WithClaimPublisher(func(p seckill.ClaimPublisher) seckill.ClaimPublisher {
		pub.ClaimPublisher = p
		return pub
	}))
	ctx := context.Background()
	v := newSale(t, svc, 5)
	accepted, _ := flood(t, svc, v.ID, 5, 1)
	time.Sleep(250 * time.Millisecond)
	rep, err := svc.Ops.Reconciler.Reconcile(ctx, svc.ReconcileConfig())
	if err != nil || rep.Failed != 5 {
		t.Fatalf("reconcile: %+v %v; want 5 failed", rep, err)
	}
	a, _ := svc.Ops.Reconciler.Audit(ctx, v.ID)
	if a.RedisStock != 5 || a.Pending != 0 || a.RedisHolders != 0 || a.Orders.Failed != 5 {
		t.Fatalf("after giving up: %+v; want stock and slots back and 5 FAILED orders", a)
	}
	for _, id := range accepted {
		if o, err := svc.Store.Orders().Order(ctx, id); err != nil || o.Status != domain.OrderFailed {
			t.Errorf("order %d: %+v %v; want FAILED", id, o, err)
		}
	}
	// The users may claim again, and this time the claims go through.
	pub.mu.Lock()
	pub.always = false
	pub.seen = map[int64]bool{}
	pub.mu.Unlock()
	pub2 := 0
	for u := int64(1); u <= 5; u++ {
		if _, err := svc.App.Commands.ClaimVoucher.Handle(ctx, u, v.ID); err == nil {
			pub2++
		}
	}
	if pub2 != 5 {
		t.Fatalf("%d of 5 users could claim again after their orders failed", pub2)
	}
	if _, err := svc.Ops.Reconciler.Reconcile(ctx, seckill.ReconcileConfig{RepublishAfter: 0, FailAfter: time.Hour, Lookback: time.Hour}); err != nil {
		t.Fatal(err)
	}
	a = drain(t, svc, v.ID)
	if bad := a.Check(5); len(bad) > 0 || a.Orders.Created != 5 {
		t.Fatalf("audit %+v: %v", a, bad)
	}
}

// repeatingIDs answers one chosen id once, as the per-second Redis sequence did after
// Redis restarted empty.
type repeatingIDs struct {
	seckill.IDGenerator
	mu     sync.Mutex
	repeat int64
}

func (g *repeatingIDs) NextID(ctx context.Context) (int64, error) {
	g.mu.Lock()
	id := g.repeat
	g.repeat = 0
	g.mu.Unlock()
	if id != 0 {
		return id, nil
	}
	return g.IDGenerator.NextID(ctx)
}

// An order id answered to a second user is not that user's order: the second claim ends
// FAILED with its unit and the user's slot back, and the first user's order stands.
func TestClaimWithAnotherUsersOrderIDEndsFailed(t *testing.T) {
	t.Parallel()
	ids := &repeatingIDs{}
	_, svc := startService(t, map[string]string{"CLAIM_RATE_PER_USER": "off", "RECONCILE_INTERVAL": "0"},
		service.WithOrderIDs(func(g seckill.IDGenerator) seckill.IDGenerator {
			ids.IDGenerator = g
			return ids
		}))
	ctx := context.Background()
	v := newSale(t, svc, 5)
	first, err := svc.App.Commands.ClaimVoucher.Handle(ctx, 1, v.ID)
	if err != nil {
		t.Fatal(err)
	}
	drain(t, svc, v.ID)
	ids.mu.Lock()
	ids.repeat = first.OrderID
	ids.mu.Unlock()
	second, err := svc.App.Commands.ClaimVoucher.Handle(ctx, 2, v.ID)
	if err != nil || second.OrderID != first.OrderID {
		t.Fatalf("second claim: %+v, %v; want the repeated id", second, err)
	}
	a := drain(t, svc, v.ID)
	if bad := a.Check(5); len(bad) > 0 || a.Orders.Created != 1 || a.RedisStock != 4 || a.RedisHolders != 1 {
		t.Fatalf("audit %+v: %v; want one order, stock 4 and one holder", a, bad)
	}
	if o, err := svc.Store.Orders().Order(ctx, first.OrderID); err != nil || o.UserID != 1 || o.Status != domain.OrderCreated {
		t.Fatalf("first order: %+v, %v", o, err)
	}
	if o, found, _ := svc.App.Queries.Orders.Order(ctx, 2, first.OrderID); found && o.Status != domain.OrderFailed {
		t.Fatalf("second user sees %+v", o)
	}
	// The second user's slot is back: a new claim goes through.
	again, err := svc.App.Commands.ClaimVoucher.Handle(ctx, 2, v.ID)
	if err != nil || again.OrderID == first.OrderID {
		t.Fatalf("claim again: %+v, %v", again, err)
	}
	if a := drain(t, svc, v.ID); len(a.Check(5)) > 0 || a.Orders.Created != 2 {
		t.Fatalf("audit after claiming again %+v: %v", a, a.Check(5))
	}
}
