package redis_test

import (
	"testing"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
	"github.com/dealspot/dealspot/internal/app/inbox"
	"github.com/dealspot/dealspot/internal/app/inbox/inboxtest"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// The notification bus meets the inbox's Bus contract on every Redis; the nodes of one
// case share a channel of their own.
func TestNotificationBusContract(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		inboxtest.BusContract(t, func(t *testing.T) func() inbox.Bus {
			channel := "notifications:contract:" + testsupport.RandomSuffix(10)
			return func() inbox.Bus {
				bus := redis.NewNotificationBus(conn.Client, channel)
				t.Cleanup(func() { _ = bus.Close() })
				return bus
			}
		})
	})
}
