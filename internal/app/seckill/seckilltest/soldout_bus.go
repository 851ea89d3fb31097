package seckilltest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/seckill"
)

// SoldOutBusContract is what every seckill.SoldOutBus must do, as its doc comments say,
// on a bus that loses nothing (no reconnects). newNetwork returns a function giving the
// nodes of one bus: what one node announces, every node's subscribers hear.
func SoldOutBusContract(t *testing.T, newNetwork func(t *testing.T) func() seckill.SoldOutBus) {
	t.Helper()
	for _, c := range []struct {
		name string
		run  func(t *testing.T, node func() seckill.SoldOutBus)
	}{
		{"an announcement reaches every subscriber on every node, in order", soldOutDelivers},
		{"a stopped subscription hears nothing more", soldOutStop},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.run(t, newNetwork(t))
		})
	}
}

// announcement is one call of a SoldOutBus subscriber's fn.
type announcement struct {
	voucherID int64
	soldOut   bool
}

// listen subscribes to bus and returns the announcements it hears.
func listen(t *testing.T, bus seckill.SoldOutBus) (<-chan announcement, func()) {
	t.Helper()
	heard := make(chan announcement, 16)
	stop, err := bus.Subscribe(context.Background(), func(voucherID int64, soldOut bool) {
		heard <- announcement{voucherID, soldOut}
	})
	if err != nil {
		t.Fatalf("subscribe: %v", err)
	}
	t.Cleanup(stop)
	return heard, stop
}

func announce(t *testing.T, bus seckill.SoldOutBus, voucherID int64, soldOut bool) {
	t.Helper()
	if err := bus.Publish(context.Background(), voucherID, soldOut); err != nil {
		t.Fatalf("publish %d sold out %v: %v", voucherID, soldOut, err)
	}
}

func wantAnnouncement(t *testing.T, heard <-chan announcement, want announcement) {
	t.Helper()
	select {
	case got := <-heard:
		if got != want {
			t.Fatalf("heard %+v, want %+v", got, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("heard nothing, want %+v", want)
	}
}

func soldOutDelivers(t *testing.T, node func() seckill.SoldOutBus) {
	a, b := node(), node()
	onA, _ := listen(t, a)
	onB, _ := listen(t, b)
	alsoOnB, _ := listen(t, b)
	v := newID()
	announce(t, a, v, true)
	announce(t, b, v, false)
	for _, heard := range []<-chan announcement{onA, onB, alsoOnB} {
		wantAnnouncement(t, heard, announcement{v, true})
		wantAnnouncement(t, heard, announcement{v, false})
	}
}

func soldOutStop(t *testing.T, node func() seckill.SoldOutBus) {
	a, b := node(), node()
	stopped, stop := listen(t, a)
	kept, _ := listen(t, a)
	stop()
	stop() // twice is harmless
	v := newID()
	announce(t, b, v, true)
	wantAnnouncement(t, kept, announcement{v, true})
	select {
	case got := <-stopped:
		t.Fatalf("a stopped subscription heard %+v", got)
	default:
	}
}

// MemSoldOutBus is an in-memory seckill.SoldOutBus: every node of one process is the same
// bus. Publish calls every subscriber before it returns.
type MemSoldOutBus struct {
	mu   sync.Mutex
	next int
	subs map[int]func(voucherID int64, soldOut bool)
	// published are the announcements so far, oldest first.
	published []announcement
}

var _ seckill.SoldOutBus = (*MemSoldOutBus)(nil)

// NewMemSoldOutBus returns a bus without subscribers.
func NewMemSoldOutBus() *MemSoldOutBus {
	return &MemSoldOutBus{subs: map[int]func(int64, bool){}}
}

// Publish implements seckill.SoldOutBus. The subscribers are called outside the bus's
// lock, so one may publish in turn.
func (b *MemSoldOutBus) Publish(_ context.Context, voucherID int64, soldOut bool) error {
	b.mu.Lock()
	b.published = append(b.published, announcement{voucherID, soldOut})
	fns := make([]func(int64, bool), 0, len(b.subs))
	for _, fn := range b.subs {
		fns = append(fns, fn)
	}
	b.mu.Unlock()
	for _, fn := range fns {
		fn(voucherID, soldOut)
	}
	return nil
}

// Subscribe implements seckill.SoldOutBus.
func (b *MemSoldOutBus) Subscribe(_ context.Context, fn func(voucherID int64, soldOut bool)) (func(), error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	id := b.next
	b.next++
	b.subs[id] = fn
	return sync.OnceFunc(func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		delete(b.subs, id)
	}), nil
}

// Announced reports whether the bus carried the announcement that voucherID sold out
// (soldOut true) or has stock again (false).
func (b *MemSoldOutBus) Announced(voucherID int64, soldOut bool) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, a := range b.published {
		if a == (announcement{voucherID, soldOut}) {
			return true
		}
	}
	return false
}
