package service

import (
	"context"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/localcache"
	redisadapter "github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
	"github.com/dealspot/dealspot/internal/app/seckill/seckilltest"
	"github.com/dealspot/dealspot/internal/app/shop"
	"github.com/dealspot/dealspot/internal/app/shop/shoptest"
	"github.com/dealspot/dealspot/internal/domain"
	cache "github.com/dealspot/dealspot/internal/readcache"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// contractCache opens a read-through cache client on conn as the server does, with L1 on,
// under a name of its own; it is closed when the test ends.
func contractCache[V any](t *testing.T, conn *redisadapter.Conn, name string) *cache.Client[V] {
	t.Helper()
	local, err := localcache.New(1000)
	if err != nil {
		t.Fatal(err)
	}
	c, err := cache.New[V](context.Background(), name+testsupport.RandomSuffix(8),
		cache.Config{LocalTTL: time.Second, RemoteTTL: time.Minute, NullTTL: time.Minute},
		cache.Deps{Local: local, Remote: redisadapter.NewCacheStore(conn.Client), Mutex: redisadapter.NewCacheMutex(conn.Client),
			Invalidations: redisadapter.NewCacheInvalidations(conn.Client, conn.Channel(redisadapter.DefaultCacheInvalidationChannel))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// The read caches the composition root hands the use cases meet the contracts of their
// ports on every Redis: vouchers and shops by id, and the list of shop types.
func TestReadCacheContracts(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redisadapter.Conn) {
		t.Run("vouchers", func(t *testing.T) {
			t.Parallel()
			seckilltest.VoucherCacheContract(t, func(t *testing.T) seckilltest.VoucherCache {
				return voucherReadCache{ByID: cache.NewByID(contractCache[domain.Voucher](t, conn, "vouchers"))}
			})
		})
		t.Run("shops", func(t *testing.T) {
			t.Parallel()
			shoptest.ShopCacheContract(t, func(t *testing.T) shoptest.ShopCache {
				return shopReadCache{ByID: cache.NewByID(contractCache[domain.Shop](t, conn, "shops"))}
			})
		})
		t.Run("shop types", func(t *testing.T) {
			t.Parallel()
			shoptest.ShopTypeCacheContract(t, func(t *testing.T) shop.ShopTypeCache {
				return shopTypeReadCache{contractCache[[]domain.ShopType](t, conn, "shoptypes")}
			})
		})
	})
}
