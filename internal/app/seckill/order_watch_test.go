package seckill_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/app/seckill/seckilltest"
	"github.com/dealspot/dealspot/internal/domain"
)

// fakeTimers is a clock whose timers fire only when the test advances it.
type fakeTimers struct {
	mu      sync.Mutex
	now     time.Time
	waiting []fakeTimer
}

type fakeTimer struct {
	at time.Time
	c  chan time.Time
}

func (f *fakeTimers) After(d time.Duration) <-chan time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := make(chan time.Time, 1)
	f.waiting = append(f.waiting, fakeTimer{at: f.now.Add(d), c: c})
	return c
}

// advance moves the clock by d and fires every timer due.
func (f *fakeTimers) advance(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = f.now.Add(d)
	kept := f.waiting[:0]
	for _, w := range f.waiting {
		if w.at.After(f.now) {
			kept = append(kept, w)
			continue
		}
		w.c <- f.now
	}
	f.waiting = kept
}

func (f *fakeTimers) pending() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.waiting)
}

// Many subscriptions of one order on a node share its periodic re-read: one read of the
// store per period, whatever their number; the re-reads stop with the last of them.
func TestOrderStatusSubscriptionsShareOneReReadPerOrder(t *testing.T) {
	t.Parallel()
	const subscribers, period = 25, 15 * time.Second
	clock := &fakeTimers{now: time.Unix(1_700_000_000, 0)}
	w := &statusWorld{reserved: &seckill.Reservation{OrderID: testOrder, UserID: testUser, VoucherID: 3, At: clock.now}}
	s := seckill.NewOrderQueriesOnClock(seckill.Config{StatusRecheck: period, StatusRecheckConcurrency: 4},
		w, w, seckilltest.NewMemStatusBus(), clock.After)

	ctx, cancel := context.WithCancel(context.Background())
	var streams []<-chan domain.OrderEvent
	for range subscribers {
		events, err := s.OrderStatus(ctx, testUser, testOrder)
		if err != nil {
			t.Fatal(err)
		}
		expectEvent(t, events, domain.OrderPending)
		streams = append(streams, events)
	}
	// Every subscription read the order once to answer at once; from then on they wait.
	waitFor(t, func() bool { return clock.pending() > 0 })
	armed := clock.pending()
	if armed != 1 {
		t.Errorf("%d timers wait to re-read one order, want 1", armed)
	}
	for period := range 3 {
		before := w.readCount()
		clock.advance(2 * 15 * time.Second) // past any jitter
		// The periodic reads are done once every timer is armed again.
		waitFor(t, func() bool { return clock.pending() == armed })
		if got := w.readCount() - before; got != 1 {
			t.Fatalf("period %d: %d subscriptions of one order read the store %d times, want once", period, subscribers, got)
		}
	}
	// A change found by the shared read reaches every subscription.
	w.write(domain.OrderCreated)
	clock.advance(2 * period)
	for _, events := range streams {
		expectEvent(t, events, domain.OrderCreated)
	}
	cancel()
	for _, events := range streams {
		for range events { // drained and closed
		}
	}
	// With no subscription left the order is no longer read.
	before := w.readCount()
	clock.advance(2 * period)
	if n := w.readCount(); n != before {
		t.Errorf("the order was read %d times after its last subscription ended", n-before)
	}
}
