package readcache_test

import (
	"context"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/internal/readcache"
)

// BenchmarkGet reads one hot key through the full client on the embedded server, with
// L1 on and with L1 off (every read a Redis round trip).
func BenchmarkGet(b *testing.B) {
	for _, bc := range []struct {
		name     string
		localTTL time.Duration
	}{
		{"l1+l2", time.Minute},
		{"l2 only", 0},
	} {
		b.Run(bc.name, func(b *testing.B) {
			conn, err := redis.Open(context.Background(), redis.Embedded)
			if err != nil {
				b.Fatal(err)
			}
			defer conn.Close()
			cfg := readcache.DefaultConfig()
			cfg.LocalTTL = bc.localTTL
			src := newSource()
			src.put("1", "Benchmark Shop")
			n := newCluster(conn).node(b, cfg, nil)
			load := src.loader("1")
			ctx := context.Background()
			if _, _, err := n.cache.Get(ctx, "1", load); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if _, found, err := n.cache.Get(ctx, "1", load); err != nil || !found {
						b.Errorf("Get = %v, %v", found, err)
						return
					}
				}
			})
			b.StopTimer()
			if got := src.loads.Load(); got != 1 {
				b.Errorf("loads = %d, want 1", got)
			}
		})
	}
}
