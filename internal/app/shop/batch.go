package shop

import (
	"context"
	"fmt"

	"github.com/dealspot/dealspot/internal/app/batchread"
	"github.com/dealspot/dealspot/internal/domain"
)

// ShopsByIDs returns the shops with ids (unknown ones left out), read through the shop
// cache as Lookup reads one; the shops the cache lacks are read with one query. It
// counts no views: it serves edges (a note's shop), not visits to a shop's page.
func (q *Queries) ShopsByIDs(ctx context.Context, ids []int64) (map[int64]domain.Shop, error) {
	valid := make([]int64, 0, len(ids))
	for _, id := range ids {
		if id > 0 {
			valid = append(valid, id)
		}
	}
	loadMany := func(ctx context.Context, ids []int64) (map[int64]domain.Shop, error) {
		shops, err := q.repo.ShopsByIDs(ctx, ids)
		if err != nil {
			return nil, fmt.Errorf("load shops: %w", err)
		}
		out := make(map[int64]domain.Shop, len(shops))
		for _, s := range shops {
			out[s.ID] = s
		}
		return out, nil
	}
	if q.shops == nil {
		return loadMany(ctx, valid)
	}
	return batchread.Through(ctx, valid, q.shops.Get, loadMany)
}

// ShopTypesByID returns every shop type by id, from the cached list.
func (q *Queries) ShopTypesByID(ctx context.Context) (map[int64]domain.ShopType, error) {
	types, err := q.ShopTypes(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]domain.ShopType, len(types))
	for _, t := range types {
		out[t.ID] = t
	}
	return out, nil
}
