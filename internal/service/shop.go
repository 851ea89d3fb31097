package service

import (
	"context"
	"strconv"

	"github.com/dealspot/dealspot/internal/app/shop"
	"github.com/dealspot/dealspot/internal/domain"
	cache "github.com/dealspot/dealspot/internal/readcache"
)

// shopReadCache is the read-through cache of shops by id (shop.ShopCache) and drops a
// changed shop from it on every node (shop.Invalidator).
type shopReadCache struct{ byID[domain.Shop] }

var (
	_ shop.ShopCache   = shopReadCache{}
	_ shop.Invalidator = shopReadCache{}
)

// ShopChanged implements shop.Invalidator.
func (r shopReadCache) ShopChanged(ctx context.Context, id int64) error { return r.drop(ctx, id) }

// byID is a read-through cache keyed by a row id: the Get of the app's reader ports
// (shop.ShopCache, seckill.VoucherReader) and the drop behind their invalidators.
type byID[V any] struct{ c *cache.Client[V] }

// Get reads id through the cache, loading it with load on a miss.
func (r byID[V]) Get(ctx context.Context, id int64, load func(context.Context) (V, bool, error)) (V, bool, error) {
	return r.c.Get(ctx, strconv.FormatInt(id, 10), load)
}

// drop removes id from the cache on every node.
func (r byID[V]) drop(ctx context.Context, id int64) error {
	return r.c.Invalidate(ctx, strconv.FormatInt(id, 10))
}

// shopTypesKey is the one key the shop-type list is cached under.
const shopTypesKey = "all"

// shopTypeReadCache caches the list of shop types as a hot key (shop.ShopTypeCache).
type shopTypeReadCache struct {
	c *cache.Client[[]domain.ShopType]
}

var _ shop.ShopTypeCache = shopTypeReadCache{}

// Get implements shop.ShopTypeCache with logical expiry.
func (r shopTypeReadCache) Get(ctx context.Context, load func(context.Context) ([]domain.ShopType, bool, error)) ([]domain.ShopType, bool, error) {
	return r.c.GetHot(ctx, shopTypesKey, load)
}
