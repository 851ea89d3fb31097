package seckill_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
)

// openPayments is whether the test's order has a payment still moving money.
type openPayments struct{ open atomic.Bool }

func (p *openPayments) OpenPayment(context.Context, int64) (bool, error) { return p.open.Load(), nil }

// A canceled order whose payment is still open keeps its subscription: the news of the
// money (an event that leaves the status as it was) is delivered, and the subscription
// ends once no payment is open — on the event, or on a re-read that finds it so when
// the event was lost.
func TestOrderStatusFollowsTheMoneyOfACanceledOrder(t *testing.T) {
	t.Parallel()
	notice := func(st domain.OrderStatus, reason string) domain.OrderEvent {
		return domain.OrderEvent{OrderID: testOrder, UserID: testUser, VoucherID: 3, Status: st, Reason: reason}
	}
	t.Run("the refund's event ends it", func(t *testing.T) {
		t.Parallel()
		s, w, bus := newStatusService(seckill.Config{})
		money := &openPayments{}
		s.WithPayments(money)
		w.write(domain.OrderCreated)
		events, err := s.OrderStatus(context.Background(), testUser, testOrder)
		if err != nil {
			t.Fatal(err)
		}
		expectEvent(t, events, domain.OrderCreated)
		// Declined: the status stays, the news is told.
		for _, e := range []domain.OrderEvent{notice(domain.OrderCreated, domain.EventPaymentDeclined), notice(domain.OrderCreated, "")} {
			if err := bus.Publish(context.Background(), e); err != nil {
				t.Fatal(err)
			}
		}
		if e := <-events; e.Status != domain.OrderCreated || e.Reason != domain.EventPaymentDeclined {
			t.Fatalf("event %+v, want CREATED with PAYMENT_DECLINED", e)
		}
		money.open.Store(true) // paying again
		w.write(domain.OrderCanceled)
		if err := bus.Publish(context.Background(), notice(domain.OrderCanceled, string(domain.CancelByBuyer))); err != nil {
			t.Fatal(err)
		}
		expectEvent(t, events, domain.OrderCanceled)
		money.open.Store(false)
		if err := bus.Publish(context.Background(), notice(domain.OrderCanceled, domain.EventPaymentRefunded)); err != nil {
			t.Fatal(err)
		}
		if e := <-events; e.Status != domain.OrderCanceled || e.Reason != domain.EventPaymentRefunded {
			t.Fatalf("event %+v, want CANCELED with PAYMENT_REFUNDED", e)
		}
		expectClosed(t, events)
	})
	t.Run("a re-read ends it when the event was lost", func(t *testing.T) {
		t.Parallel()
		s, w, bus := newStatusService(seckill.Config{})
		money := &openPayments{}
		money.open.Store(true)
		s.WithPayments(money)
		w.write(domain.OrderCanceled)
		events, err := s.OrderStatus(context.Background(), testUser, testOrder)
		if err != nil {
			t.Fatal(err)
		}
		expectEvent(t, events, domain.OrderCanceled)
		bus.LoseEvents()
		waitFor(t, func() bool { return w.readCount() >= 2 }) // re-read, money still moving: open
		money.open.Store(false)
		bus.LoseEvents()
		expectClosed(t, events)
	})
	t.Run("a final order with no money moving ends at once", func(t *testing.T) {
		t.Parallel()
		s, w, _ := newStatusService(seckill.Config{})
		s.WithPayments(&openPayments{})
		w.write(domain.OrderCanceled)
		events, err := s.OrderStatus(context.Background(), testUser, testOrder)
		if err != nil {
			t.Fatal(err)
		}
		expectEvent(t, events, domain.OrderCanceled)
		expectClosed(t, events)
	})
}
