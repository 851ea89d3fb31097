package service

import (
	"context"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/app/deals"
	"github.com/dealspot/dealspot/internal/app/favorites"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/app/shop"
	"github.com/dealspot/dealspot/internal/domain"
)

// favoriteTargets looks favourites' shops and vouchers up through the shop and voucher
// reads (and their caches).
type favoriteTargets struct {
	shops    *shop.Queries
	vouchers *seckill.VouchersOfShop
}

var _ favorites.Targets = favoriteTargets{}

// Exists implements favorites.Targets.
func (f favoriteTargets) Exists(ctx context.Context, t domain.FavoriteTarget) (bool, error) {
	if t.Kind == domain.FavoriteVoucher {
		_, found, err := f.vouchers.ByID(ctx, t.ID)
		return found, err
	}
	shops, err := f.shops.ShopsByIDs(ctx, []int64{t.ID})
	if err != nil {
		return false, err
	}
	_, found := shops[t.ID]
	return found, nil
}

// startDiscovery builds, on the shops and vouchers built before, the favourites' use
// cases and the search of deals near a point.
func (s *Node) startDiscovery() error {
	pages := domain.PageLimits{Default: s.Config.Paging.DefaultPageSize, Max: s.Config.Paging.MaxPageSize}
	cmds, queries, err := favorites.New(favorites.Config{MaxPerUser: s.Config.Favorites.MaxPerUser, Pages: pages},
		favorites.Deps{
			Store:   entstore.NewFavorites(s.Store),
			Targets: favoriteTargets{shops: s.App.Queries.Shops, vouchers: s.App.Queries.Vouchers},
		})
	if err != nil {
		return err
	}
	s.App.Commands.Favorites, s.App.Queries.Favorites = cmds, queries
	near, err := deals.New(deals.Limits{
		MaxRadiusMeters: s.Config.Paging.DealsMaxRadius,
		MaxShops:        s.Config.Paging.DealsMaxShops,
		Pages:           pages,
	}, deals.Deps{Shops: s.App.Queries.Shops, Vouchers: s.App.Queries.Vouchers})
	if err != nil {
		return err
	}
	s.App.Queries.Deals = near
	return nil
}
