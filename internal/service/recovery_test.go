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

func newSale(t *testing.T, svc *service.Service, stock int64) domain.Voucher {
	t.Helper()
	v, err := svc.App.Seckill.CreateFlashSale(context.Background(), seckill.FlashSaleInput{
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
		rep, err := svc.App.Seckill.Reconcile(ctx, svc.ReconcileConfig())
		if err != nil || rep.SalesLoaded == 0 {
			t.Fatalf("reconcile after flush: %+v, %v", rep, err)
		}
		a, _ := svc.App.Seckill.Audit(ctx, v.ID)
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
	if a, _ := svc.App.Seckill.Audit(ctx, v.ID); a.Pending != 30 || a.Orders.Created != 0 {
		t.Fatalf("with every message lost: %+v; want 30 pending, no orders", a)
	}
	rep, err := svc.App.Seckill.Reconcile(ctx, svc.ReconcileConfig())
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
	rep, err := svc.App.Seckill.Reconcile(ctx, svc.ReconcileConfig())
	if err != nil || rep.Failed != 5 {
		t.Fatalf("reconcile: %+v %v; want 5 failed", rep, err)
	}
	a, _ := svc.App.Seckill.Audit(ctx, v.ID)
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
		if _, err := svc.App.Seckill.ClaimVoucher(ctx, u, v.ID); err == nil {
			pub2++
		}
	}
	if pub2 != 5 {
		t.Fatalf("%d of 5 users could claim again after their orders failed", pub2)
	}
	if _, err := svc.App.Seckill.Reconcile(ctx, seckill.ReconcileConfig{RepublishAfter: 0, FailAfter: time.Hour, Lookback: time.Hour}); err != nil {
		t.Fatal(err)
	}
	a = drain(t, svc, v.ID)
	if bad := a.Check(5); len(bad) > 0 || a.Orders.Created != 5 {
		t.Fatalf("audit %+v: %v", a, bad)
	}
}
