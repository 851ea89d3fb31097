package service

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"
)

// refreshedShops records the shops refreshed, in order.
type refreshedShops struct {
	mu    sync.Mutex
	shops []int64
}

func (r *refreshedShops) ShopChanged(_ context.Context, id int64) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.shops = append(r.shops, id)
	return nil
}

func (r *refreshedShops) got() []int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Sorted(slices.Values(r.shops))
}

// The first sold change of a shop refreshes it at once; the changes that follow within
// the interval are refreshed together, once per shop, at its end.
func TestSoldRefresherRefreshesOncePerInterval(t *testing.T) {
	t.Parallel()
	inv := &refreshedShops{}
	const interval = 300 * time.Millisecond
	r := newSoldRefresher(inv, interval, slog.New(slog.DiscardHandler))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); r.run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })

	r.SoldChanged(ctx, 1)
	refreshedWithin(t, func() bool { return len(inv.got()) == 1 })
	for range 100 {
		r.SoldChanged(ctx, 1, 2)
	}
	time.Sleep(interval / 3)
	if got := inv.got(); !slices.Equal(got, []int64{1}) {
		t.Fatalf("refreshed within the interval: %v, want only the first change's [1]", got)
	}
	refreshedWithin(t, func() bool { return len(inv.got()) == 3 })
	time.Sleep(interval + interval/2)
	if got := inv.got(); !slices.Equal(got, []int64{1, 1, 2}) {
		t.Errorf("refreshed %v, want [1] at once, then [1 2] once", got)
	}
	var none *soldRefresher
	none.SoldChanged(ctx, 3) // nothing caches shops: nothing to do
}

func refreshedWithin(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached")
		}
	}
}
