package redis_test

import (
	"context"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// BenchmarkGateReserve measures Redis-side claims/s of the reserve script with 256
// concurrent claimers, one EVALSHA round trip per claim against coalesced pipelines.
// Run the sub-benchmarks alternately (-count) to compare them on a noisy host.
func BenchmarkGateReserve(b *testing.B) {
	url := redis.Embedded
	if os.Getenv(testsupport.EnvRedis) != "" {
		url = testsupport.RedisURL(b)
	} else {
		b.Logf("%s unset: measuring the embedded Redis", testsupport.EnvRedis)
	}
	conn, err := redis.Open(context.Background(), url)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	for _, mode := range []struct {
		name   string
		window time.Duration
	}{{"per-call", 0}, {"coalesced", 200 * time.Microsecond}} {
		b.Run(mode.name, func(b *testing.B) {
			gate, err := redis.NewSaleGate(conn.Client, redis.GateConfig{Shards: 16, Coalesce: redis.Coalescing{Window: mode.window, Max: 64}})
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			const voucher = 7
			if _, err := gate.Load(ctx, seckill.SaleState{VoucherID: voucher, Stock: 1 << 40,
				BeginTime: time.Now().Add(-time.Hour), EndTime: time.Now().Add(time.Hour)}, true); err != nil {
				b.Fatal(err)
			}
			var ids atomic.Int64
			ids.Store(time.Now().UnixNano())
			b.SetParallelism(128) // 2 cores × 128 = 256 claimers
			b.ResetTimer()
			start := time.Now()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					id := ids.Add(1)
					v, _, err := gate.Reserve(ctx, seckill.Reservation{OrderID: id, UserID: id, VoucherID: voucher, At: time.Now()})
					if err != nil || v != seckill.Accepted {
						b.Errorf("reserve: %v %v", v, err)
						return
					}
				}
			})
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "claims/s")
		})
	}
}
