package batchread_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/dealspot/dealspot/internal/app/batchread"
)

// memCache is a one-key read-through cache in memory.
type memCache struct {
	mu   sync.Mutex
	vals map[int64]string
}

func (c *memCache) get(ctx context.Context, id int64, load func(context.Context) (string, bool, error)) (string, bool, error) {
	c.mu.Lock()
	v, ok := c.vals[id]
	c.mu.Unlock()
	if ok {
		return v, v != "", nil
	}
	v, found, err := load(ctx)
	if err != nil {
		return "", false, err
	}
	c.mu.Lock()
	c.vals[id] = v // "" caches "not found"
	c.mu.Unlock()
	return v, found, nil
}

func TestMissesAreLoadedInOneBatch(t *testing.T) {
	t.Parallel()
	store := map[int64]string{1: "a", 2: "b", 3: "c", 4: "d"}
	cache := &memCache{vals: map[int64]string{1: "a"}}
	var calls [][]int64
	var mu sync.Mutex
	loadMany := func(_ context.Context, ids []int64) (map[int64]string, error) {
		mu.Lock()
		calls = append(calls, slices.Sorted(slices.Values(ids)))
		mu.Unlock()
		out := map[int64]string{}
		for _, id := range ids {
			if v, ok := store[id]; ok {
				out[id] = v
			}
		}
		return out, nil
	}
	got, err := batchread.Through(t.Context(), []int64{1, 2, 3, 9, 2}, cache.get, loadMany)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[1] != "a" || got[2] != "b" || got[3] != "c" {
		t.Errorf("got %v, want 1, 2 and 3 (9 is unknown)", got)
	}
	if len(calls) != 1 || !slices.Equal(calls[0], []int64{2, 3, 9}) {
		t.Errorf("store calls %v, want one for the misses 2, 3, 9", calls)
	}
	// Now cached, "not found" included: no store call at all.
	calls = nil
	if got, err := batchread.Through(t.Context(), []int64{1, 2, 3, 9}, cache.get, loadMany); err != nil || len(got) != 3 || len(calls) != 0 {
		t.Errorf("warm: %v, %v, store calls %v", got, err, calls)
	}
}

func TestStoreErrorReachesTheCaller(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	cache := &memCache{vals: map[int64]string{}}
	_, err := batchread.Through(t.Context(), []int64{1, 2}, cache.get, func(context.Context, []int64) (map[int64]string, error) {
		return nil, boom
	})
	if !errors.Is(err, boom) {
		t.Errorf("err %v, want the store's", err)
	}
}
