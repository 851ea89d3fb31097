package service

import (
	"context"

	"github.com/dealspot/dealspot/internal/app/shop"
	"github.com/dealspot/dealspot/internal/domain"
	cache "github.com/dealspot/dealspot/internal/readcache"
)

// shopReadCache is the read-through cache of shops by id (shop.ShopCache) under the
// name of shop.Invalidator's method, which drops a changed shop from it on every node.
type shopReadCache struct{ cache.ByID[domain.Shop] }

var (
	_ shop.ShopCache   = shopReadCache{}
	_ shop.Invalidator = shopReadCache{}
)

// ShopChanged implements shop.Invalidator.
func (r shopReadCache) ShopChanged(ctx context.Context, id int64) error { return r.Invalidate(ctx, id) }

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
