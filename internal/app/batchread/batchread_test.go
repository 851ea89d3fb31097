package batchread_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"golang.org/x/sync/singleflight"

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

// Two calls over the same cold ids, each leading the cache's load of an id whose read
// the other call joined, must not wait for each other: each call's batch would wait for
// its other id, whose read waits on the other call's batch. (The cache reads an id once
// at a time — singleflight — as the read cache does.)
func TestCrossedCallsDoNotWaitForEachOther(t *testing.T) {
	var flights singleflight.Group
	getter := func(delayed int64) batchread.Get[string] {
		return func(ctx context.Context, id int64, load func(context.Context) (string, bool, error)) (string, bool, error) {
			if id == delayed {
				time.Sleep(50 * time.Millisecond) // the other call leads this id's load by then
			}
			v, err, _ := flights.Do(fmt.Sprint(id), func() (any, error) {
				v, found, err := load(ctx)
				if !found {
					return "", err
				}
				return v, err
			})
			return v.(string), v.(string) != "", err
		}
	}
	loadMany := func(_ context.Context, ids []int64) (map[int64]string, error) {
		out := map[int64]string{}
		for _, id := range ids {
			out[id] = fmt.Sprint("shop ", id)
		}
		return out, nil
	}
	type result struct {
		m   map[int64]string
		err error
	}
	results := make(chan result, 2)
	go func() {
		m, err := batchread.Through(context.Background(), []int64{1, 2}, getter(2), loadMany)
		results <- result{m, err}
	}()
	go func() {
		m, err := batchread.Through(context.Background(), []int64{1, 2}, getter(1), loadMany)
		results <- result{m, err}
	}()
	for range 2 {
		select {
		case r := <-results:
			if r.err != nil || r.m[1] != "shop 1" || r.m[2] != "shop 2" {
				t.Fatalf("Through = %v, %v; want both shops", r.m, r.err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("two calls over the same cold ids wait for each other")
		}
	}
}

func TestPositiveIDsDropsNoneAndRepeats(t *testing.T) {
	t.Parallel()
	in := []int64{3, 0, 5, 3, -1, 7, 5}
	got := batchread.PositiveIDs(in)
	if want := []int64{3, 5, 7}; !slices.Equal(got, want) {
		t.Fatalf("PositiveIDs = %v, want %v", got, want)
	}
	if want := []int64{3, 0, 5, 3, -1, 7, 5}; !slices.Equal(in, want) {
		t.Fatalf("the input changed to %v", in)
	}
}
