package redis_test

import (
	"testing"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
	"github.com/dealspot/dealspot/internal/app/shop"
	"github.com/dealspot/dealspot/internal/app/shop/shoptest"
)

// The nearby index meets the GeoIndex contract on every Redis.
func TestGeoIndexContract(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		shoptest.GeoIndexContract(t, func(*testing.T) shop.GeoIndex { return redis.NewGeoIndex(conn.Client) })
	})
}
