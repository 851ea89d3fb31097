package seckill

import (
	"context"
	"sync"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// orderWatches shares the re-reads of subscribed orders: a node runs one watcher per
// order, however many orderStatus subscriptions follow it, so a client that opens a
// thousand subscriptions of its order costs one read of the stores per StatusRecheck,
// not a thousand.
type orderWatches struct {
	mu sync.Mutex
	by map[orderKey]*orderWatch
}

// orderKey names a watched order. Only its owner can subscribe to an order, so there is
// one key per order id; the user is part of it because the re-read reads as that user.
type orderKey struct{ userID, orderID int64 }

// orderWatch is one order's watcher and the subscriptions it serves.
type orderWatch struct {
	subs   map[*orderWatcher]struct{}
	poke   chan struct{} // asks for a re-read now; holds one request
	cancel context.CancelFunc
}

// orderWatcher is one subscription's end of a shared watch: the watcher's latest read
// of the order, and a way to ask for a read now.
type orderWatcher struct {
	reads chan domain.OrderEvent // holds the latest read only
	w     *orderWatch
}

// rereadNow asks the watcher for a read as soon as it can; requests made while one is
// waiting are served by the same read.
func (s *orderWatcher) rereadNow() {
	select {
	case s.w.poke <- struct{}{}:
	default:
	}
}

// join adds a subscription of the user's order to its watcher, starting the watcher if
// it is the first one; leave takes it out again and stops the watcher with the last.
func (q *OrderQueries) join(ctx context.Context, userID, orderID int64) (sub *orderWatcher, leave func()) {
	ws := &q.watches
	key := orderKey{userID, orderID}
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if ws.by == nil {
		ws.by = map[orderKey]*orderWatch{}
	}
	w := ws.by[key]
	if w == nil {
		// The watcher outlives the subscription that started it, but keeps its values
		// (request id for the logs).
		wctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		w = &orderWatch{subs: map[*orderWatcher]struct{}{}, poke: make(chan struct{}, 1), cancel: cancel}
		ws.by[key] = w
		go q.watch(wctx, key, w)
	}
	sub = &orderWatcher{reads: make(chan domain.OrderEvent, 1), w: w}
	w.subs[sub] = struct{}{}
	return sub, func() {
		ws.mu.Lock()
		defer ws.mu.Unlock()
		if _, ok := w.subs[sub]; !ok {
			return
		}
		delete(w.subs, sub)
		if len(w.subs) == 0 {
			delete(ws.by, key)
			w.cancel()
		}
	}
}

// watch re-reads the order every StatusRecheck (jittered) and whenever a subscription
// asks, and hands every read that found the order to each subscription, until the last
// one leaves.
func (q *OrderQueries) watch(ctx context.Context, key orderKey, w *orderWatch) {
	arm := func() <-chan time.Time {
		if q.c.cfg.StatusRecheck <= 0 {
			return nil
		}
		return q.c.wait(jitter(q.c.cfg.StatusRecheck))
	}
	tick := arm()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick:
			tick = nil
		case <-w.poke:
		}
		if ctx.Err() != nil {
			return
		}
		if e := q.reread(ctx, key.userID, key.orderID); e.Status != "" {
			q.watches.hand(w, e)
		}
		if tick == nil {
			tick = arm()
		}
	}
}

// hand gives e to every subscription of w, replacing a read it has not taken yet.
func (ws *orderWatches) hand(w *orderWatch, e domain.OrderEvent) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	for sub := range w.subs {
		select {
		case <-sub.reads:
		default:
		}
		sub.reads <- e
	}
}
