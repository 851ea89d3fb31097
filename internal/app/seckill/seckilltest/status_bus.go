package seckilltest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
)

// StatusBusContract is what every seckill.StatusBus must do, as its doc comments say,
// on a bus that loses nothing (no reconnects). newNetwork returns a function giving the
// nodes of one bus: what one node publishes, every node's subscribers get. Subscribers
// read every event at once; a case publishes at most four events to one subscriber.
func StatusBusContract(t *testing.T, newNetwork func(t *testing.T) func() seckill.StatusBus) {
	t.Helper()
	for _, c := range []struct {
		name string
		run  func(t *testing.T, node func() seckill.StatusBus)
	}{
		{"an event reaches the order's subscribers on every node, whole", busDelivers},
		{"a subscriber gets its order's events only, in order", busFilters},
		{"a canceled subscription gets nothing more", busCancel},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.run(t, newNetwork(t))
		})
	}
}

func subscribe(t *testing.T, bus seckill.StatusBus, orderID int64) (<-chan domain.OrderEvent, func()) {
	t.Helper()
	events, cancel, err := bus.Subscribe(context.Background(), orderID)
	if err != nil {
		t.Fatalf("subscribe to %d: %v", orderID, err)
	}
	t.Cleanup(cancel)
	return events, cancel
}

func publish(t *testing.T, bus seckill.StatusBus, events ...domain.OrderEvent) {
	t.Helper()
	if err := bus.Publish(context.Background(), events...); err != nil {
		t.Fatalf("publish: %v", err)
	}
}

func event(orderID int64, s domain.OrderStatus) domain.OrderEvent {
	return domain.OrderEvent{OrderID: orderID, UserID: orderID + 1, VoucherID: orderID + 2, Status: s,
		At: time.UnixMilli(orderID)}
}

func sameEvent(a, b domain.OrderEvent) bool {
	return a.OrderID == b.OrderID && a.UserID == b.UserID && a.VoucherID == b.VoucherID && a.Status == b.Status &&
		a.Reason == b.Reason && a.At.Equal(b.At)
}

func wantEvent(t *testing.T, events <-chan domain.OrderEvent, want domain.OrderEvent) {
	t.Helper()
	select {
	case got := <-events:
		if !sameEvent(got, want) {
			t.Fatalf("got %+v, want %+v", got, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("no event, want %+v", want)
	}
}

func wantNoEvent(t *testing.T, events <-chan domain.OrderEvent) {
	t.Helper()
	select {
	case got, ok := <-events:
		if ok {
			t.Fatalf("got %+v, want nothing", got)
		}
	default:
	}
}

func busDelivers(t *testing.T, node func() seckill.StatusBus) {
	a, b := node(), node()
	order := newID()
	onA, _ := subscribe(t, a, order)
	onB, _ := subscribe(t, b, order)
	alsoOnB, _ := subscribe(t, b, order)
	failed := event(order, domain.OrderFailed)
	failed.Reason = "sold out"
	publish(t, a, failed)
	for _, ch := range []<-chan domain.OrderEvent{onA, onB, alsoOnB} {
		wantEvent(t, ch, failed)
	}
}

func busFilters(t *testing.T, node func() seckill.StatusBus) {
	a, b := node(), node()
	order, other := newID(), newID()
	events, _ := subscribe(t, a, order)
	otherEvents, _ := subscribe(t, a, other)
	publish(t, b, event(other, domain.OrderPending), event(order, domain.OrderPending), event(order, domain.OrderCreated))
	publish(t, b, event(other, domain.OrderCreated))
	wantEvent(t, otherEvents, event(other, domain.OrderPending))
	wantEvent(t, otherEvents, event(other, domain.OrderCreated))
	// The other order's last event is delivered, so this order's events are too.
	wantEvent(t, events, event(order, domain.OrderPending))
	wantEvent(t, events, event(order, domain.OrderCreated))
	wantNoEvent(t, events)
}

func busCancel(t *testing.T, node func() seckill.StatusBus) {
	a, b := node(), node()
	order := newID()
	canceled, cancel := subscribe(t, a, order)
	kept, _ := subscribe(t, a, order)
	cancel()
	cancel() // twice is harmless
	publish(t, b, event(order, domain.OrderCreated))
	wantEvent(t, kept, event(order, domain.OrderCreated))
	wantNoEvent(t, canceled)
}

// MemStatusBus is an in-memory seckill.StatusBus: every node of one process is the same
// bus. Like the real one, it delivers at most once: a subscriber with four unread events
// loses the next.
type MemStatusBus struct {
	mu   sync.Mutex
	subs map[int64]map[chan domain.OrderEvent]struct{}
}

var _ seckill.StatusBus = (*MemStatusBus)(nil)

// NewMemStatusBus returns an empty bus.
func NewMemStatusBus() *MemStatusBus {
	return &MemStatusBus{subs: map[int64]map[chan domain.OrderEvent]struct{}{}}
}

// Publish implements seckill.StatusBus.
func (b *MemStatusBus) Publish(_ context.Context, events ...domain.OrderEvent) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, e := range events {
		for ch := range b.subs[e.OrderID] {
			select {
			case ch <- e:
			default:
			}
		}
	}
	return nil
}

// Subscribe implements seckill.StatusBus.
func (b *MemStatusBus) Subscribe(_ context.Context, orderID int64) (<-chan domain.OrderEvent, func(), error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	ch := make(chan domain.OrderEvent, 4)
	if b.subs[orderID] == nil {
		b.subs[orderID] = map[chan domain.OrderEvent]struct{}{}
	}
	b.subs[orderID][ch] = struct{}{}
	return ch, sync.OnceFunc(func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		delete(b.subs[orderID], ch)
		if len(b.subs[orderID]) == 0 {
			delete(b.subs, orderID)
		}
	}), nil
}

// LoseEvents asks every subscriber to re-read its order (an event with no status), as
// the bus does when it reconnected and events may have been lost.
func (b *MemStatusBus) LoseEvents() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for id, chans := range b.subs {
		for ch := range chans {
			select {
			case ch <- domain.OrderEvent{OrderID: id}:
			default:
			}
		}
	}
}
