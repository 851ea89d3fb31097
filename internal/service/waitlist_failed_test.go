package service_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// TestWaitlistGetsTheUnitsOfFailedClaims: a sale of 30 sells out to 30 accepted claims
// whose orders are never written (no order consumer), 40 users join its waitlist, then
// the reconciler, every 100ms, gives the claims up (RECONCILE_FAIL_AFTER) and repairs the
// sale's drift while 16 goroutines flood the sale with direct claims: each failed claim's unit is held for the first in line, in
// order, and the flood takes none; the audit counts the held units; the 30 accept theirs.
func TestWaitlistGetsTheUnitsOfFailedClaims(t *testing.T) {
	t.Parallel()
	storeBackends(t, func(t *testing.T, env map[string]string) {
		_, svc := startService(t, waitlistEnv(env, map[string]string{
			"ORDER_CONSUMER": "false", "WAITLIST_OFFER_TTL": "1h",
			"RECONCILE_INTERVAL": "0", "RECONCILE_REPUBLISH_AFTER": "100ms", "RECONCILE_FAIL_AFTER": "200ms",
		}))
		ctx := context.Background()
		const stock, waiting = 30, 40
		v := newSale(t, svc, stock)
		claims := map[int64]int64{}
		for u := int64(1); u <= stock; u++ {
			r, err := svc.App.Commands.ClaimVoucher.Handle(ctx, u, v.ID)
			if err != nil {
				t.Fatalf("claim of user %d: %v", u, err)
			}
			claims[u] = r.OrderID
		}
		if _, err := svc.App.Commands.ClaimVoucher.Handle(ctx, 999999, v.ID); domain.ErrorCode(err) != domain.CodeSoldOut {
			t.Fatalf("a claim of the sold-out sale: %v, want SOLD_OUT", err)
		}
		line := make([]int64, waiting)
		for i := range line {
			line[i] = 2001 + int64(i)
		}
		joinInOrder(t, svc, v.ID, line)

		// The reconciler, from now on (the claims are old enough to be given up): it fails
		// the claims and repairs the sale's drift meanwhile.
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				case <-time.After(100 * time.Millisecond):
				}
				if _, err := svc.Ops.Reconciler.Reconcile(ctx, svc.ReconcileConfig()); err != nil {
					t.Errorf("reconcile: %v", err)
				}
			}
		}()
		halt := sync.OnceFunc(func() { close(stop); wg.Wait() })
		defer halt()
		stopFlood := directClaims(t, svc, v.ID, 100000)
		waitlistPoll(t, "30 units held", func() bool { return heldUnits(t, svc, v.ID) == stock })
		time.Sleep(500 * time.Millisecond) // the flood and the reconciler go on a little
		halt()
		if n := stopFlood(); n != 0 {
			t.Fatalf("direct claims took %d units of the failed claims", n)
		}
		for u, id := range claims {
			o, found, err := svc.App.Queries.Orders.Order(ctx, u, id)
			if err != nil || !found || o.Status != domain.OrderFailed {
				t.Fatalf("claim of user %d: %+v found=%v %v, want its order FAILED", u, o, found, err)
			}
		}
		a := checkAudit(t, svc, v.ID, stock)
		if a.Held != stock || a.Orders.Created != 0 || a.DBStock != 0 || a.RedisStock != 0 {
			t.Fatalf("audit %+v: want 30 held units, no order and no stock", a)
		}
		checkLine(t, svc, v.ID, line, stock, time.Hour)
		for _, u := range line[:stock] {
			if _, err := svc.App.Commands.AcceptOffer.Handle(ctx, user(u), v.ID); err != nil {
				t.Fatalf("accept of user %d: %v", u, err)
			}
		}
		a = checkAudit(t, svc, v.ID, stock)
		if a.Held != 0 || a.Orders.Created != stock || a.RedisStock != 0 || a.DBStock != 0 {
			t.Fatalf("audit %+v: want 30 orders, nothing held, no stock", a)
		}
	})
}
