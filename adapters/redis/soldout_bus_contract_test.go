package redis_test

import (
	"testing"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/app/seckill/seckilltest"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// The sold-out bus meets the SoldOutBus contract on every Redis; the nodes of one case
// share a channel of their own.
func TestSoldOutBusContract(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		seckilltest.SoldOutBusContract(t, func(*testing.T) func() seckill.SoldOutBus {
			channel := "seckill:soldout:contract:" + testsupport.RandomSuffix(10)
			return func() seckill.SoldOutBus { return redis.NewSoldOutBus(conn.Client, channel) }
		})
	})
}
