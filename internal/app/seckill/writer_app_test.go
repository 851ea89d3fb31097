package seckill_test

import (
	"context"
	"testing"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
)

// The order writer fails the claims it cannot write: a duplicate (the user holds another
// order) gives its unit back and keeps the user's slot; a claim beyond the database's
// stock frees the slot and keeps the unit taken (Redis gave out more than it had). Both
// orders end FAILED with their reasons, and their followers are told.
func TestOrderWriterFailsDuplicateAndUnstockedClaims(t *testing.T) {
	t.Parallel()
	f := newFlashSale(t, seckill.Config{})
	ctx := context.Background()
	v := f.openSale(t, 5)
	// User 9 holds an order the gate did not learn of (written before a reload, say).
	f.orders.mu.Lock()
	f.orders.orders[1] = domain.VoucherOrder{ID: 1, UserID: 9, VoucherID: v, Status: domain.OrderCreated}
	f.orders.mu.Unlock()
	f.orders.setStock(t, v, 1)
	dup, ok, short := f.accept(t, 9, v), f.accept(t, 7, v), f.accept(t, 8, v)
	f.wantGate(t, v, 2, 7, 8, 9)
	dupEvents, okEvents, shortEvents := f.follow(t, dup), f.follow(t, ok), f.follow(t, short)
	if err := f.OrderWriter.ProcessClaims(ctx, f.wantPublished(t, f.queue, dup, ok, short)); err != nil {
		t.Fatalf("process claims: %v", err)
	}
	wantStatus(t, okEvents, domain.OrderCreated)
	for order, want := range map[int64]string{dup: seckill.ReasonDuplicate, short: seckill.ReasonNoStock} {
		if o, err := f.orders.Order(ctx, order); err != nil || o.Status != domain.OrderFailed || o.FailReason != want {
			t.Fatalf("order %d = %+v, %v; want FAILED, %q", order, o, err, want)
		}
	}
	if e := wantStatus(t, dupEvents, domain.OrderFailed); e.Reason != seckill.ReasonDuplicate {
		t.Fatalf("duplicate's event %+v, want the reason %q", e, seckill.ReasonDuplicate)
	}
	if e := wantStatus(t, shortEvents, domain.OrderFailed); e.Reason != seckill.ReasonNoStock {
		t.Fatalf("unstocked claim's event %+v, want the reason %q", e, seckill.ReasonNoStock)
	}
	// The duplicate's unit is back, its user still a holder; the unstocked claim's unit
	// stays taken and its user may claim again.
	f.wantReservations(t, v)
	f.wantGate(t, v, 3, 7, 9)
	if f.observed.failures(seckill.FailDuplicate) != 1 || f.observed.failures(seckill.FailNoStock) != 1 {
		t.Fatalf("failures counted: duplicate %d, no stock %d; want one each",
			f.observed.failures(seckill.FailDuplicate), f.observed.failures(seckill.FailNoStock))
	}
}
