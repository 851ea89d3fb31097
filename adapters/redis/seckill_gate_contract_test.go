package redis_test

import (
	"context"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/app/seckill/seckilltest"
)

// The gate meets the SaleStock contract claim by claim and coalesced, on every Redis.
func TestGateContract(t *testing.T) {
	t.Parallel()
	eachGateMode(t, redis.Coalescing{Window: 200 * time.Microsecond, Max: 8}, func(t *testing.T, conn *redis.Conn, coalesce redis.Coalescing) {
		seckilltest.SaleStockContract(t, func(t *testing.T) seckill.SaleStock {
			g, err := redis.NewSaleGate(conn.Client, redis.GateConfig{Shards: 4, Coalesce: coalesce})
			if err != nil {
				t.Fatal(err)
			}
			return g
		})
	})
}

// A gate that splits every sale into three buckets on three shards meets the same
// contract.
func TestGateContractSplitSales(t *testing.T) {
	t.Parallel()
	eachGateMode(t, redis.Coalescing{Window: 200 * time.Microsecond, Max: 8}, func(t *testing.T, conn *redis.Conn, coalesce redis.Coalescing) {
		seckilltest.SplitSaleStockContract(t, func(t *testing.T) seckill.SaleStock {
			g, err := redis.NewSaleGate(conn.Client, redis.GateConfig{Shards: 4, Coalesce: coalesce,
				BucketsOf: func(context.Context, int64) (int, error) { return 3, nil }})
			if err != nil {
				t.Fatal(err)
			}
			return g
		})
	})
}
