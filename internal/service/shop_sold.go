package service

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/dealspot/dealspot/internal/app/orders"
)

// soldRefresher drops the cached copies of shops whose sold counts moved (orders paid,
// refunded, or written PAID), at most once per shop every interval: the first change
// refreshes at once, the changes that follow within the interval together at its end. A
// free flash sale written in batches of hundreds of orders a second thus costs its
// shop's cache one refresh a second, not one per batch, and nothing is waited for on
// the paths that move orders.
type soldRefresher struct {
	inv      shopChanges
	interval time.Duration
	log      *slog.Logger

	mu    sync.Mutex
	dirty map[int64]struct{}
	wake  chan struct{}
}

var _ orders.SoldChanges = (*soldRefresher)(nil)

// shopChanges drops the cached copies of a changed shop.
type shopChanges interface {
	ShopChanged(ctx context.Context, id int64) error
}

// startSoldRefresher refreshes the node's cached shops — each by id and the lists of its
// type, which show its sold count too — until the node closes; nil when nothing caches
// shops.
func (s *Node) startSoldRefresher(interval time.Duration) *soldRefresher {
	if s.shopInvalidator == nil {
		return nil
	}
	r := newSoldRefresher(lateShopInvalidator{s}, interval, s.Log)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); r.run(ctx) }()
	s.closers = append(s.closers, func() error { cancel(); <-done; return nil })
	return r
}

// newSoldRefresher returns a refresher through inv; run runs it.
func newSoldRefresher(inv shopChanges, interval time.Duration, log *slog.Logger) *soldRefresher {
	return &soldRefresher{inv: inv, interval: interval, log: log, dirty: map[int64]struct{}{}, wake: make(chan struct{}, 1)}
}

// SoldChanged implements orders.SoldChanges.
func (r *soldRefresher) SoldChanged(_ context.Context, shopIDs ...int64) {
	if r == nil || len(shopIDs) == 0 {
		return
	}
	r.mu.Lock()
	for _, id := range shopIDs {
		r.dirty[id] = struct{}{}
	}
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// run refreshes the shops marked since the last refresh whenever there are some, then
// waits the interval, until ctx ends.
func (r *soldRefresher) run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-r.wake:
		}
		r.mu.Lock()
		shops := r.dirty
		r.dirty = map[int64]struct{}{}
		r.mu.Unlock()
		for id := range shops {
			if err := r.inv.ShopChanged(ctx, id); err != nil && ctx.Err() == nil {
				r.log.Warn("a shop's cached sold count is served until it expires", slog.Int64("shop_id", id), slog.Any("error", err))
			}
		}
		t := time.NewTimer(r.interval)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}
