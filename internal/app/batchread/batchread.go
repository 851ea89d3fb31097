// Package batchread reads many values by id through a one-key read-through cache,
// sending the ids the cache misses to the store in one batch instead of one look-up per
// miss: a page of 50 notes about 30 shops costs at most one shop query, however cold the
// cache.
package batchread

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Get is a one-key read-through cache: it returns the value with id from the cache or,
// on a miss, from load (caching its answer).
type Get[V any] func(ctx context.Context, id int64, load func(ctx context.Context) (V, bool, error)) (V, bool, error)

// LoadMany reads the values with ids from the store; ids it lacks are left out.
type LoadMany[V any] func(ctx context.Context, ids []int64) (map[int64]V, error)

// flushIdle is how long a batch with misses waits while no other id of it is decided
// before it loads the misses it has. An id can stay undecided for good: its read joined
// a load another Through call leads (the cache reads each id once at a time), and that
// call's batch may be waiting for an id whose read joined this call's load — without the
// wait, two calls over the same cold ids would wait for each other forever. As long as
// decisions keep coming, however slowly, the batch waits for all of them; misses decided
// after it went are loaded one by one.
const flushIdle = 100 * time.Millisecond

// Through returns the values of ids (unknown ones left out), each read through get; the
// ids get misses are loaded with one call of loadMany, made once every id was either
// answered by the cache or found missing, or once no id was decided for flushIdle while
// misses wait. A load the cache makes later (a background refresh, or a miss decided
// after the batch went) loads its id alone.
func Through[V any](ctx context.Context, ids []int64, get Get[V], loadMany LoadMany[V]) (map[int64]V, error) {
	ids = UniqueIDs(ids)
	out := make(map[int64]V, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	b := &batch[V]{undecided: len(ids), done: make(chan struct{}), loadMany: loadMany}
	type answer struct {
		v     V
		found bool
		err   error
	}
	answers := make([]answer, len(ids))
	decided := make([]atomic.Bool, len(ids))
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			load := func(ctx context.Context) (V, bool, error) {
				if !decided[i].CompareAndSwap(false, true) || !b.decide(ctx, id, true) {
					return loadOne(ctx, loadMany, id)
				}
				<-b.done
				v, ok := b.loaded[id]
				return v, ok, b.err
			}
			v, found, err := get(ctx, id, load)
			if decided[i].CompareAndSwap(false, true) {
				b.decide(ctx, id, false) // answered without loading
			}
			answers[i] = answer{v, found, err}
		}()
	}
	wg.Wait()
	for i, id := range ids {
		a := answers[i]
		if a.err != nil {
			return nil, a.err
		}
		if a.found {
			out[id] = a.v
		}
	}
	return out, nil
}

// batch gathers the misses of one Through call.
type batch[V any] struct {
	mu        sync.Mutex
	undecided int
	missing   []int64
	sent      bool
	timer     *time.Timer
	loadMany  LoadMany[V]
	done      chan struct{}
	loaded    map[int64]V
	err       error
}

// decide records whether id missed; the last id decided sends the batch, and while
// misses wait every decision starts the flushIdle wait again. It returns whether a miss is in the batch: false once
// the batch went without it (the caller loads it alone).
func (b *batch[V]) decide(ctx context.Context, id int64, missed bool) bool {
	b.mu.Lock()
	if b.sent {
		b.mu.Unlock()
		return false
	}
	if missed {
		b.missing = append(b.missing, id)
	}
	b.undecided--
	last := b.undecided == 0
	switch {
	case last:
	case b.timer != nil:
		b.timer.Reset(flushIdle) // progress: wait again
	case len(b.missing) > 0:
		b.timer = time.AfterFunc(flushIdle, func() { b.send(context.WithoutCancel(ctx)) })
	}
	b.mu.Unlock()
	if last {
		b.send(ctx)
	}
	return missed
}

// send loads the misses gathered so far, once.
func (b *batch[V]) send(ctx context.Context) {
	b.mu.Lock()
	if b.sent {
		b.mu.Unlock()
		return
	}
	b.sent = true
	if b.timer != nil {
		b.timer.Stop()
	}
	missing := b.missing
	b.mu.Unlock()
	if len(missing) > 0 {
		b.loaded, b.err = b.loadMany(ctx, missing)
	}
	close(b.done)
}

func loadOne[V any](ctx context.Context, loadMany LoadMany[V], id int64) (V, bool, error) {
	m, err := loadMany(ctx, []int64{id})
	v, ok := m[id]
	return v, ok, err
}

// PositiveIDs returns the ids above 0 (0: none) without repeats, in first-seen order,
// leaving ids as they were.
func PositiveIDs(ids []int64) []int64 {
	out := UniqueIDs(ids)
	return slices.DeleteFunc(out, func(id int64) bool { return id <= 0 })
}

// UniqueIDs returns ids without repeats, in first-seen order: what a batch look-up asks
// the store for.
func UniqueIDs(ids []int64) []int64 {
	seen := make(map[int64]bool, len(ids))
	out := make([]int64, 0, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
