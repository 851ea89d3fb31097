package shoptest

import (
	"cmp"
	"context"
	"slices"
	"sync"

	"github.com/dealspot/dealspot/internal/app/shop"
	"github.com/dealspot/dealspot/internal/domain"
)

// MemGeoIndex is an in-memory shop.GeoIndex measuring great-circle distances.
type MemGeoIndex struct {
	mu sync.Mutex
	// byType holds each type's shops by id.
	byType map[int64]map[int64]domain.ShopPosition
}

var _ shop.GeoIndex = (*MemGeoIndex)(nil)

// NewMemGeoIndex returns an empty index.
func NewMemGeoIndex() *MemGeoIndex {
	return &MemGeoIndex{byType: map[int64]map[int64]domain.ShopPosition{}}
}

func (g *MemGeoIndex) put(p domain.ShopPosition) {
	if g.byType[p.TypeID] == nil {
		g.byType[p.TypeID] = map[int64]domain.ShopPosition{}
	}
	g.byType[p.TypeID][p.ShopID] = p
}

// Put implements shop.GeoIndex.
func (g *MemGeoIndex) Put(_ context.Context, p domain.ShopPosition, oldTypeID int64) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if oldTypeID != 0 && oldTypeID != p.TypeID {
		delete(g.byType[oldTypeID], p.ShopID)
	}
	g.put(p)
	return nil
}

// Rebuild implements shop.GeoIndex.
func (g *MemGeoIndex) Rebuild(_ context.Context, positions []domain.ShopPosition) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.byType = map[int64]map[int64]domain.ShopPosition{}
	for _, p := range positions {
		g.put(p)
	}
	return nil
}

// Nearby implements shop.GeoIndex.
func (g *MemGeoIndex) Nearby(_ context.Context, typeID int64, lon, lat, radiusMeters float64, limit int) ([]shop.GeoHit, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	var hits []shop.GeoHit
	for id, p := range g.byType[typeID] {
		if d := domain.DistanceMeters(lon, lat, p.Longitude, p.Latitude); d <= radiusMeters {
			hits = append(hits, shop.GeoHit{ShopID: id, DistanceMeters: d})
		}
	}
	slices.SortFunc(hits, func(a, b shop.GeoHit) int {
		return cmp.Or(cmp.Compare(a.DistanceMeters, b.DistanceMeters), cmp.Compare(a.ShopID, b.ShopID))
	})
	if limit > 0 && len(hits) > limit {
		hits = hits[:limit]
	}
	return hits, nil
}
