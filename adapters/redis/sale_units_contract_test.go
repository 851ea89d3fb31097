package redis_test

import (
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/internal/app/orders/orderstest"
	"github.com/dealspot/dealspot/internal/app/seckill/seckilltest"
)

// The flash sale's SaleUnits over the gate meets the contract of the order lifecycle's
// view of a sale (orders.Sales) on every Redis, claim by claim and coalesced: the units
// of released orders go back once per order id through seckill_return.lua.
func TestSaleUnitsOnTheGateContract(t *testing.T) {
	t.Parallel()
	eachGateMode(t, redis.Coalescing{Window: 200 * time.Microsecond, Max: 8}, func(t *testing.T, conn *redis.Conn, coalesce redis.Coalescing) {
		orderstest.SalesContract(t, func(t *testing.T) orderstest.Sales {
			g, err := redis.NewSaleGate(conn.Client, redis.GateConfig{Shards: 4, Coalesce: coalesce})
			if err != nil {
				t.Fatal(err)
			}
			return seckilltest.SaleUnitsOn(t, g)
		})
	})
}
