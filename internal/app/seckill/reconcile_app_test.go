package seckill_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
)

// The reconciler settles a reservation whose order is written, publishes again the claim
// of one older than RepublishAfter, and gives up one older than FailAfter: its order
// FAILED, its unit and the user's slot back, the user told.
func TestReconcileRepublishesAndFailsStaleReservations(t *testing.T) {
	t.Parallel()
	f := newFlashSale(t, seckill.Config{})
	v := f.openSale(t, 5)
	rc := seckill.ReconcileConfig{RepublishAfter: time.Minute, FailAfter: 10 * time.Minute, Lookback: time.Hour}
	ctx := context.Background()

	written := f.accept(t, 6, v)
	if err := f.OrderWriter.ProcessClaims(ctx, f.wantPublished(t, f.queue, written)); err != nil {
		t.Fatal(err)
	}
	f.clock.Advance(time.Second)
	stale := f.accept(t, 7, v)
	// The next order is written but its reservation not settled (the writer died between).
	f.clock.Advance(time.Second)
	settled := f.accept(t, 8, v)
	if _, err := f.orders.WriteClaims(ctx, f.queue.Published()[2:], time.Minute); err != nil {
		t.Fatal(err)
	}

	// Young reservations wait, except one whose order is written: the drift repair
	// settles it and tells its followers.
	written2 := f.follow(t, settled)
	rep, err := f.Reconciler.Reconcile(ctx, rc)
	if err != nil || rep.Republished != 0 || rep.Failed != 0 || rep.Settled != 1 {
		t.Fatalf("first pass: %+v, %v; want the written order's reservation settled, nothing else", rep, err)
	}
	wantStatus(t, written2, domain.OrderCreated)
	f.wantReservations(t, v, stale)
	f.clock.Advance(2 * time.Minute)
	rep, err = f.Reconciler.Reconcile(ctx, rc)
	if err != nil || rep.Republished != 1 || rep.Failed != 0 {
		t.Fatalf("after 2 min: %+v, %v; want one republished", rep, err)
	}
	if got := f.wantPublished(t, f.requeue, stale); got[0].UserID != 7 || got[0].VoucherID != v {
		t.Fatalf("republished %+v, want user 7's claim", got[0])
	}
	f.wantReservations(t, v, stale)

	events := f.follow(t, stale)
	f.clock.Advance(10 * time.Minute)
	rep, err = f.Reconciler.Reconcile(ctx, rc)
	if err != nil || rep.Failed != 1 {
		t.Fatalf("after 12 min: %+v, %v; want one failed", rep, err)
	}
	if o, err := f.orders.Order(ctx, stale); err != nil || o.Status != domain.OrderFailed || o.FailReason != seckill.ReasonExpired {
		t.Fatalf("stale order = %+v, %v; want FAILED, expired", o, err)
	}
	if e := wantStatus(t, events, domain.OrderFailed); e.Reason != seckill.ReasonExpired {
		t.Fatalf("event %+v, want the reason %q", e, seckill.ReasonExpired)
	}
	f.wantReservations(t, v)
	f.wantGate(t, v, 3, 6, 8)
	f.accept(t, 7, v) // the slot is back
	if n := f.observed.failures(seckill.FailExpired); n != 1 {
		t.Fatalf("%d orders counted failed expired, want 1", n)
	}
}

// A failing reconcile of one sale's reservations leaves it for the next pass and says so.
func TestReconcileReportsAFailedRepublish(t *testing.T) {
	t.Parallel()
	f := newFlashSale(t, seckill.Config{})
	v := f.openSale(t, 5)
	order := f.accept(t, 7, v)
	broken := errors.New("queue down")
	f.requeue.Fail(broken)
	f.clock.Advance(2 * time.Minute)
	rep, err := f.Reconciler.Reconcile(context.Background(), seckill.ReconcileConfig{RepublishAfter: time.Minute, FailAfter: time.Hour, Lookback: time.Hour})
	if !errors.Is(err, broken) || rep.Republished != 0 {
		t.Fatalf("reconcile with the queue down: %+v, %v; want its error", rep, err)
	}
	f.wantReservations(t, v, order)
	f.wantGate(t, v, 4, 7)
}
