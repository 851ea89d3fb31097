// Package batchread reads many values by id through a one-key read-through cache,
// sending the ids the cache misses to the store in one batch instead of one look-up per
// miss: a page of 50 notes about 30 shops costs at most one shop query, however cold the
// cache.
package batchread

import (
	"context"
	"sync"
	"sync/atomic"
)

// Get is a one-key read-through cache: it returns the value with id from the cache or,
// on a miss, from load (caching its answer).
type Get[V any] func(ctx context.Context, id int64, load func(ctx context.Context) (V, bool, error)) (V, bool, error)

// LoadMany reads the values with ids from the store; ids it lacks are left out.
type LoadMany[V any] func(ctx context.Context, ids []int64) (map[int64]V, error)

// Through returns the values of ids (unknown ones left out), each read through get; the
// ids get misses are loaded with one call of loadMany, made once every id was either
// answered by the cache or found missing. A load the cache makes later (a background
// refresh) loads its id alone.
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
				if !decided[i].CompareAndSwap(false, true) {
					return loadOne(ctx, loadMany, id)
				}
				b.decide(ctx, id, true)
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
	loadMany  LoadMany[V]
	done      chan struct{}
	loaded    map[int64]V
	err       error
}

// decide records whether id missed; the last id decided sends the batch.
func (b *batch[V]) decide(ctx context.Context, id int64, missed bool) {
	b.mu.Lock()
	if missed {
		b.missing = append(b.missing, id)
	}
	b.undecided--
	last := b.undecided == 0
	missing := b.missing
	b.mu.Unlock()
	if !last {
		return
	}
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
