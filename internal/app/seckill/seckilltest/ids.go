package seckilltest

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/dealspot/dealspot/internal/app/seckill"
)

// IDGeneratorContract is what every seckill.IDGenerator must do, as its doc comment
// says: positive ids, increasing from one generator, never twice (from goroutines at
// once, and from the generators of two nodes). newNodes returns a function giving the
// generators of distinct nodes.
func IDGeneratorContract(t *testing.T, newNodes func(t *testing.T) func() seckill.IDGenerator) {
	t.Helper()
	for _, c := range []struct {
		name string
		run  func(t *testing.T, node func() seckill.IDGenerator)
	}{
		{"one generator's ids are positive and increase", idsIncrease},
		{"ids handed out at once, on two nodes, are all distinct", idsDistinct},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.run(t, newNodes(t))
		})
	}
}

func nextID(t *testing.T, g seckill.IDGenerator) int64 {
	t.Helper()
	id, err := g.NextID(context.Background())
	if err != nil {
		t.Fatalf("next id: %v", err)
	}
	return id
}

func idsIncrease(t *testing.T, node func() seckill.IDGenerator) {
	g := node()
	last := int64(0)
	for range 1000 {
		id := nextID(t, g)
		if id <= last {
			t.Fatalf("id %d after %d, want a greater one", id, last)
		}
		last = id
	}
}

func idsDistinct(t *testing.T, node func() seckill.IDGenerator) {
	const goroutines, each = 8, 500
	nodes := []seckill.IDGenerator{node(), node()}
	ids := make([][]int64, goroutines)
	var failed atomic.Bool
	var wg sync.WaitGroup
	for i := range goroutines {
		wg.Go(func() {
			for range each {
				id, err := nodes[i%2].NextID(context.Background())
				if err != nil {
					failed.Store(true)
					return
				}
				ids[i] = append(ids[i], id)
			}
		})
	}
	wg.Wait()
	if failed.Load() {
		t.Fatal("next id failed")
	}
	all := slices.Concat(ids...)
	slices.Sort(all)
	if len(slices.Compact(all)) != goroutines*each {
		t.Fatalf("%d distinct ids of %d handed out", len(slices.Compact(all)), goroutines*each)
	}
}

// MemIDs is an in-memory seckill.IDGenerator: every generator of one MemIDs counts on
// one counter, so its nodes never repeat each other's ids. Fail makes NextID fail.
type MemIDs struct {
	last atomic.Int64
	err  atomic.Pointer[error]
}

var _ seckill.IDGenerator = (*MemIDs)(nil)

// NewMemIDs returns a generator whose first id is first.
func NewMemIDs(first int64) *MemIDs {
	g := &MemIDs{}
	g.last.Store(first - 1)
	return g
}

// NextID implements seckill.IDGenerator.
func (g *MemIDs) NextID(context.Context) (int64, error) {
	if err := g.err.Load(); err != nil {
		return 0, *err
	}
	return g.last.Add(1), nil
}

// Fail makes every NextID from now on return err (nil: succeed again).
func (g *MemIDs) Fail(err error) {
	if err == nil {
		g.err.Store(nil)
		return
	}
	g.err.Store(&err)
}
