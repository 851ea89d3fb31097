package service

import (
	"context"
	"errors"
	"slices"

	"github.com/dealspot/dealspot/internal/app/shop"
	"github.com/dealspot/dealspot/internal/domain"
	cache "github.com/dealspot/dealspot/internal/readcache"
)

// shopReadCache is the read-through cache of shops by id (shop.ShopCache) under the
// name of shop.Invalidator's methods, which drop a changed shop from it, and the lists
// that show it from lists, on every node.
type shopReadCache struct {
	cache.ByID[domain.Shop]
	lists cache.ByID[[]domain.Shop]
	ids   *idFilters
}

var (
	_ shop.ShopCache     = shopReadCache{}
	_ shop.Invalidator   = shopReadCache{}
	_ shop.ShopListCache = shopListCache{}
)

// ShopChanged implements shop.Invalidator.
// A new shop's id joins the id filter before the change is announced.
func (r shopReadCache) ShopChanged(ctx context.Context, id int64) error {
	r.ids.addShop(id)
	return r.Invalidate(ctx, id)
}

// ShopsOfTypeChanged implements shop.Invalidator: the heads of the lists of typeIDs and
// of every type are dropped.
func (r shopReadCache) ShopsOfTypeChanged(ctx context.Context, typeIDs ...int64) error {
	var errs []error
	for _, t := range slices.Compact(slices.Sorted(slices.Values(append([]int64{0}, typeIDs...)))) {
		if t >= 0 {
			errs = append(errs, r.lists.Invalidate(ctx, t))
		}
	}
	return errors.Join(errs...)
}

// shopListCache caches the heads of the lists of shops by type (shop.ShopListCache).
type shopListCache struct{ cache.ByID[[]domain.Shop] }

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
