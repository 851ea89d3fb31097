package redis_test

import (
	"testing"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/app/seckill/seckilltest"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// The status bus meets the StatusBus contract on every Redis; the nodes of one case
// share a channel of their own (Pub/Sub channels span a server's databases).
func TestStatusBusContract(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		seckilltest.StatusBusContract(t, func(t *testing.T) func() seckill.StatusBus {
			channel := "order:status:contract:" + testsupport.RandomSuffix(10)
			return func() seckill.StatusBus {
				bus := redis.NewStatusBus(conn.Client, channel)
				t.Cleanup(func() { _ = bus.Close() })
				return bus
			}
		})
	})
}
