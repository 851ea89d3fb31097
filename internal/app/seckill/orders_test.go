package seckill_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/app/seckill/seckilltest"
	"github.com/dealspot/dealspot/internal/domain"
)

// saleStock is seckill.SaleStock embedded under a name that leaves the order store's
// SaleStock method visible.
type saleStock = seckill.SaleStock

// statusWorld is the order's state as order(id) sees it: a reservation in the gate until
// the order is written. Only the methods OrderStatus uses are implemented.
type statusWorld struct {
	orders.OrderStore
	saleStock

	mu       sync.Mutex
	order    *domain.VoucherOrder
	reserved *seckill.Reservation
	fail     error
	reads    int
}

func (w *statusWorld) Order(_ context.Context, id int64) (domain.VoucherOrder, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.reads++
	if w.fail != nil {
		return domain.VoucherOrder{}, w.fail
	}
	if w.order == nil || w.order.ID != id {
		return domain.VoucherOrder{}, domain.ErrNotFound
	}
	return *w.order, nil
}

func (w *statusWorld) Pending(_ context.Context, id int64) (seckill.Reservation, bool, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.reserved == nil || w.reserved.OrderID != id {
		return seckill.Reservation{}, false, nil
	}
	return *w.reserved, true, nil
}

// write writes the order (settling its reservation), or moves the written order to
// status, without telling the bus.
func (w *statusWorld) write(status domain.OrderStatus) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.order != nil {
		w.order.Status = status
		return
	}
	o := domain.VoucherOrder{ID: w.reserved.OrderID, UserID: w.reserved.UserID, VoucherID: w.reserved.VoucherID, Status: status}
	w.order, w.reserved = &o, nil
}

func (w *statusWorld) setFail(err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.fail = err
}

func (w *statusWorld) readCount() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.reads
}

const (
	testUser  = 5
	testOrder = 77
)

func newStatusService(cfg seckill.Config) (*seckill.OrderQueries, *statusWorld, *seckilltest.MemStatusBus) {
	w := &statusWorld{reserved: &seckill.Reservation{OrderID: testOrder, UserID: testUser, VoucherID: 3, At: time.Unix(1_700_000_000, 0)}}
	bus := seckilltest.NewMemStatusBus()
	return seckill.NewOrderQueries(cfg, w, w, bus), w, bus
}

func expectEvent(t *testing.T, events <-chan domain.OrderEvent, want domain.OrderStatus) {
	t.Helper()
	select {
	case e, ok := <-events:
		if !ok || e.Status != want || e.OrderID != testOrder || e.UserID != testUser {
			t.Fatalf("got %+v (open %v), want %s", e, ok, want)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("no %s event", want)
	}
}

func expectClosed(t *testing.T, events <-chan domain.OrderEvent) {
	t.Helper()
	select {
	case e, ok := <-events:
		if ok {
			t.Fatalf("got %+v after the final status", e)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("subscription not closed after the final status")
	}
}

func TestOrderStatusReReadsWhenTheBusMayHaveLostEvents(t *testing.T) {
	t.Parallel()
	for _, final := range []domain.OrderStatus{domain.OrderCanceled, domain.OrderFailed} {
		t.Run(string(final), func(t *testing.T) {
			t.Parallel()
			s, w, bus := newStatusService(seckill.Config{})
			events, err := s.OrderStatus(context.Background(), testUser, testOrder)
			if err != nil {
				t.Fatal(err)
			}
			expectEvent(t, events, domain.OrderPending)
			// A re-read while nothing changed delivers nothing.
			bus.LoseEvents()
			// The order is written while the bus is away: its event is lost.
			waitFor(t, func() bool { return w.readCount() >= 2 })
			w.write(final)
			bus.LoseEvents()
			expectEvent(t, events, final)
			expectClosed(t, events)
		})
	}

	t.Run("a failed re-read waits for the next one", func(t *testing.T) {
		t.Parallel()
		s, w, bus := newStatusService(seckill.Config{})
		events, err := s.OrderStatus(context.Background(), testUser, testOrder)
		if err != nil {
			t.Fatal(err)
		}
		expectEvent(t, events, domain.OrderPending)
		w.write(domain.OrderCreated)
		w.setFail(errors.New("database away"))
		bus.LoseEvents()
		waitFor(t, func() bool { return w.readCount() >= 2 })
		w.setFail(nil)
		bus.LoseEvents()
		expectEvent(t, events, domain.OrderCreated)
		// CREATED is not final: the subscription follows the order on.
		w.write(domain.OrderUsed)
		bus.LoseEvents()
		expectEvent(t, events, domain.OrderUsed)
		expectClosed(t, events)
	})

	t.Run("events of the order still end the subscription", func(t *testing.T) {
		t.Parallel()
		s, _, bus := newStatusService(seckill.Config{})
		events, err := s.OrderStatus(context.Background(), testUser, testOrder)
		if err != nil {
			t.Fatal(err)
		}
		expectEvent(t, events, domain.OrderPending)
		for _, st := range []domain.OrderStatus{domain.OrderCreated, domain.OrderCreated, domain.OrderPaid, domain.OrderUsed} {
			if err := bus.Publish(context.Background(), domain.OrderEvent{OrderID: testOrder, UserID: testUser, VoucherID: 3, Status: st}); err != nil {
				t.Fatal(err)
			}
		}
		// Every transition once (the repeated CREATED is not delivered twice), and the
		// final USED ends the subscription.
		expectEvent(t, events, domain.OrderCreated)
		expectEvent(t, events, domain.OrderPaid)
		expectEvent(t, events, domain.OrderUsed)
		expectClosed(t, events)
	})
}

func TestOrderStatusRechecksPendingOrdersPeriodically(t *testing.T) {
	t.Parallel()
	// No event at all reaches the subscription (the publishing node could not publish).
	s, w, _ := newStatusService(seckill.Config{StatusRecheck: 20 * time.Millisecond, StatusRecheckConcurrency: 1})
	events, err := s.OrderStatus(context.Background(), testUser, testOrder)
	if err != nil {
		t.Fatal(err)
	}
	expectEvent(t, events, domain.OrderPending)
	waitFor(t, func() bool { return w.readCount() >= 3 }) // still PENDING: nothing sent
	w.write(domain.OrderCreated)
	expectEvent(t, events, domain.OrderCreated)
	// Re-reads go on after CREATED: a lost PAID or CANCELED is found too.
	n := w.readCount()
	waitFor(t, func() bool { return w.readCount() >= n+3 }) // still CREATED: nothing sent
	w.write(domain.OrderCanceled)
	expectEvent(t, events, domain.OrderCanceled)
	expectClosed(t, events)
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached")
		}
		time.Sleep(time.Millisecond)
	}
}
