package seckill_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/seckill"
)

func TestOrderIDsOfDifferentStartsNeverRepeatInOneSecond(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	clock := func() time.Time { return at }
	seen := map[int64]int64{}
	// Starts 1 and 1024 share a node part, so they are not both here; no two of these
	// starts may collide, whatever the sequence.
	for _, start := range []int64{1, 2, 3, 1022, 1023} {
		node, err := seckill.NodeOfStart(start)
		if err != nil {
			t.Fatal(err)
		}
		g, err := seckill.NewOrderIDs(node, clock)
		if err != nil {
			t.Fatal(err)
		}
		for range 1000 {
			id, _ := g.NextID(context.Background())
			if other, dup := seen[id]; dup {
				t.Fatalf("id %d from start %d repeats start %d's", id, start, other)
			}
			seen[id] = start
			if got := seckill.OrderIDSecond(id); !got.Equal(at) {
				t.Fatalf("id %d encodes %v, want %v", id, got, at)
			}
		}
	}
}

func TestNodeOfStartCyclesThroughEveryNodePartButZero(t *testing.T) {
	t.Parallel()
	for start, want := range map[int64]int64{1: 1, 2: 2, 1023: 1023, 1024: 1, 2046: 1023, 2047: 1} {
		if got, err := seckill.NodeOfStart(start); err != nil || got != want {
			t.Errorf("NodeOfStart(%d) = %d, %v; want %d", start, got, err, want)
		}
	}
	if _, err := seckill.NodeOfStart(0); err == nil {
		t.Error("start 0 accepted")
	}
	for _, node := range []int64{0, seckill.OrderIDNodes + 1} {
		if _, err := seckill.NewOrderIDs(node, nil); err == nil {
			t.Errorf("node part %d accepted", node)
		}
	}
}

func TestOrderIDsAreUniqueAndOrderedUnderConcurrencyAndABackwardClock(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	now := time.Date(2026, 11, 23, 10, 0, 5, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	g, err := seckill.NewOrderIDs(7, clock)
	if err != nil {
		t.Fatal(err)
	}
	var (
		idsMu sync.Mutex
		seen  = map[int64]bool{}
		wg    sync.WaitGroup
	)
	for w := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			last := int64(0)
			for i := range 2000 {
				if w == 0 && i == 1000 {
					mu.Lock()
					now = now.Add(-3 * time.Second) // the clock steps back
					mu.Unlock()
				}
				id, _ := g.NextID(context.Background())
				if id <= last {
					t.Errorf("id %d not after %d", id, last)
					return
				}
				last = id
				idsMu.Lock()
				if seen[id] {
					t.Errorf("id %d handed out twice", id)
				}
				seen[id] = true
				idsMu.Unlock()
			}
		}()
	}
	wg.Wait()
}

func TestOrderIDsBorrowTheNextSecondWhenOneIsUsedUp(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	g, _ := seckill.NewOrderIDs(1, func() time.Time { return at })
	var last int64
	for range 1<<22 + 1 {
		last, _ = g.NextID(context.Background())
	}
	if got := seckill.OrderIDSecond(last); !got.Equal(at.Add(time.Second)) {
		t.Fatalf("id %d after 2^22 ids in one second encodes %v, want the next second", last, got)
	}
}

// The memory of accepted claims stays within its bound by forgetting the oldest claims
// first (the likeliest to be written), forgets written claims, and remembers nothing
// when turned off.
func TestAcceptedClaimsStayWithinTheirBound(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name         string
		max          int
		ids, written []int64
		kept         []int64
		evicted      int
	}{
		{"within the bound", 5, []int64{1, 2, 3}, nil, []int64{1, 2, 3}, 0},
		{"oldest forgotten first", 3, []int64{1, 2, 3, 4, 5}, nil, []int64{3, 4, 5}, 2},
		{"written forgotten", 5, []int64{1, 2, 3}, []int64{2}, []int64{1, 3}, 0},
		{"written do not count against the bound", 2, []int64{1, 2, 3}, []int64{3}, []int64{2}, 1},
		{"off", 0, []int64{1, 2}, nil, nil, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			kept, evicted := seckill.RememberAccepted(tc.max, tc.ids, tc.written)
			if !slices.Equal(kept, tc.kept) || evicted != tc.evicted {
				t.Errorf("kept %v, evicted %d; want %v, %d", kept, evicted, tc.kept, tc.evicted)
			}
		})
	}
}
