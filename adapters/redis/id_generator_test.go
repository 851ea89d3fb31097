package redis_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
)

func TestIDGeneratorIsUniqueAcrossNodesAndTimeOrdered(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		// Three nodes sharing one Redis, small blocks so they interleave.
		var gens []*redis.IDGenerator
		for range 3 {
			g, err := redis.NewIDGenerator(conn.Client, 7)
			if err != nil {
				t.Fatal(err)
			}
			gens = append(gens, g)
		}
		var mu sync.Mutex
		seen := map[int64]bool{}
		var wg sync.WaitGroup
		for i := range 30 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				g := gens[i%len(gens)]
				last := int64(0)
				for range 200 {
					id, err := g.NextID(context.Background())
					if err != nil {
						t.Error(err)
						return
					}
					if id <= 0 {
						t.Errorf("id %d is not positive", id)
					}
					if id>>32 < last>>32 {
						t.Errorf("id %d is from an earlier second than %d", id, last)
					}
					last = id
					mu.Lock()
					if seen[id] {
						t.Errorf("id %d handed out twice", id)
					}
					seen[id] = true
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		id, _ := gens[0].NextID(context.Background())
		at := redis.IDEpoch.Add(time.Duration(id>>32) * time.Second)
		if d := time.Since(at); d < 0 || d > 5*time.Second {
			t.Errorf("id %d encodes %v, not the current UTC second", id, at)
		}
	})
}
