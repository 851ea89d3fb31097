package shop

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/dealspot/dealspot/internal/domain"
)

// NearbyLimits bounds nearby searches.
type NearbyLimits struct {
	DefaultRadiusMeters float64
	MaxRadiusMeters     float64
	// MaxDepth is how many shops a search may page through (0: DefaultNearbyMaxDepth):
	// each page reads every shop before it from the index.
	MaxDepth int
}

// DefaultNearbyMaxDepth is NearbyLimits.MaxDepth's default.
const DefaultNearbyMaxDepth = 1000

// NearbyCursor is where a nearby page ends: the last shop returned, its distance, and how
// many shops came before it.
type NearbyCursor struct {
	DistanceMeters float64
	ShopID         int64
	Seen           int
}

// NearbyShop is a shop with its distance from the search point.
type NearbyShop struct {
	Shop           domain.Shop
	DistanceMeters float64
}

// NearbyPage is one page of a nearby search.
type NearbyPage struct {
	Shops       []NearbyShop
	HasNextPage bool
}

// NearbyQuery is one nearby search. Radius 0 means the default; TypeID 0 means shops of
// every type.
type NearbyQuery struct {
	TypeID       int64
	Longitude    float64
	Latitude     float64
	RadiusMeters float64
	First        int
	// After is the previous page's end; nil for the first page.
	After *NearbyCursor
}

// tieSlack is how many more index entries than needed a page reads, so that shops
// added near the cursor or sharing a distance do not shift the page boundary.
const tieSlack = 32

// Nearby pages through shops of a type by distance from a point, nearest first. Pages
// are keyed by (distance, id) of the last shop returned, so paging yields each shop once
// in non-decreasing distance. Distances are haversine distances from the shops' stored
// coordinates. Errors: BAD_USER_INPUT for out-of-range coordinates, radius or page size.
func (q *Queries) Nearby(ctx context.Context, in NearbyQuery) (NearbyPage, error) {
	size, err := q.limits.Size(in.First)
	if err != nil {
		return NearbyPage{}, err
	}
	switch {
	case in.TypeID < 0:
		return NearbyPage{}, domain.Errorf(domain.CodeBadUserInput, "typeId must be a positive id")
	case !domain.ValidCoordinates(in.Longitude, in.Latitude) || math.IsNaN(in.Longitude) || math.IsNaN(in.Latitude):
		return NearbyPage{}, domain.Errorf(domain.CodeBadUserInput, "longitude must be within ±180 and latitude within ±%.4f", domain.MaxLatitude)
	case in.RadiusMeters < 0 || in.RadiusMeters > q.nearby.MaxRadiusMeters || math.IsNaN(in.RadiusMeters):
		return NearbyPage{}, domain.Errorf(domain.CodeBadUserInput, "radiusMeters must be between 0 and %.0f", q.nearby.MaxRadiusMeters)
	}
	radius := in.RadiusMeters
	if radius == 0 {
		radius = q.nearby.DefaultRadiusMeters
	}
	seen := 0
	if in.After != nil {
		seen = in.After.Seen
		maxDepth := cmp.Or(q.nearby.MaxDepth, DefaultNearbyMaxDepth)
		switch {
		case seen < 1 || in.After.ShopID < 1 || in.After.DistanceMeters < 0 || math.IsNaN(in.After.DistanceMeters):
			return NearbyPage{}, domain.BadCursor()
		case seen >= maxDepth:
			return NearbyPage{}, domain.Errorf(domain.CodeBadUserInput, "after: nearbyShops pages through at most %d shops; narrow the radius", maxDepth)
		}
	}
	found, err := q.nearest(ctx, in.TypeID, in.Longitude, in.Latitude, radius, seen+size+1+tieSlack)
	if err != nil {
		return NearbyPage{}, err
	}
	if in.After != nil {
		after := *in.After
		found = slices.DeleteFunc(found, func(n NearbyShop) bool {
			return n.DistanceMeters < after.DistanceMeters ||
				(n.DistanceMeters == after.DistanceMeters && n.Shop.ID <= after.ShopID)
		})
	}
	page := NearbyPage{Shops: found}
	if len(found) > size {
		page.Shops, page.HasNextPage = found[:size], true
	}
	return page, nil
}

// Within returns up to limit shops of every type within radiusMeters of a point, nearest
// first (ties by id), each with its haversine distance from the point. Errors:
// BAD_USER_INPUT for out-of-range coordinates or radius (the caller bounds the radius).
func (q *Queries) Within(ctx context.Context, lon, lat, radiusMeters float64, limit int) ([]NearbyShop, error) {
	if !domain.ValidCoordinates(lon, lat) || math.IsNaN(lon) || math.IsNaN(lat) {
		return nil, domain.Errorf(domain.CodeBadUserInput, "longitude must be within ±180 and latitude within ±%.4f", domain.MaxLatitude)
	}
	if radiusMeters <= 0 || math.IsNaN(radiusMeters) || limit <= 0 {
		return nil, domain.Errorf(domain.CodeBadUserInput, "the radius must be positive")
	}
	found, err := q.nearest(ctx, 0, lon, lat, radiusMeters, limit)
	if err != nil {
		return nil, err
	}
	// The index's distances and the stored coordinates' may differ by a hair at the edge.
	found = slices.DeleteFunc(found, func(n NearbyShop) bool { return n.DistanceMeters > radiusMeters })
	return found[:min(len(found), limit)], nil
}

// nearest reads up to limit shops of typeID (0: every type) within radius from the index
// and the shops (through the shop cache), nearest first by their stored coordinates.
func (q *Queries) nearest(ctx context.Context, typeID int64, lon, lat, radius float64, limit int) ([]NearbyShop, error) {
	hits, err := q.nearbyHits(ctx, typeID, lon, lat, radius, limit)
	if err != nil {
		return nil, fmt.Errorf("nearby shops: %w", err)
	}
	ids := make([]int64, len(hits))
	for i, h := range hits {
		ids[i] = h.ShopID
	}
	// Through the shop cache: a page reads tieSlack more shops than it shows, and most
	// of them were read a moment ago by the page before.
	shops, err := q.ShopsByIDs(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("load nearby shops: %w", err)
	}
	found := make([]NearbyShop, 0, len(shops))
	for _, s := range shops {
		if typeID != 0 && s.TypeID != typeID {
			continue // moved to another type since it was indexed
		}
		d := domain.DistanceMeters(lon, lat, s.Longitude, s.Latitude)
		found = append(found, NearbyShop{Shop: s, DistanceMeters: d})
	}
	slices.SortFunc(found, func(a, b NearbyShop) int {
		return cmp.Or(cmp.Compare(a.DistanceMeters, b.DistanceMeters), cmp.Compare(a.Shop.ID, b.Shop.ID))
	})
	return found, nil
}

// nearbyHits reads the index of typeID, or, for typeID 0, the index of every type (a few
// dozen at most) and keeps the nearest limit hits of them all.
func (q *Queries) nearbyHits(ctx context.Context, typeID int64, lon, lat, radius float64, limit int) ([]GeoHit, error) {
	if typeID != 0 {
		return q.geo.Nearby(ctx, typeID, lon, lat, radius, limit)
	}
	types, err := q.ShopTypes(ctx)
	if err != nil {
		return nil, err
	}
	var all []GeoHit
	for _, t := range types {
		hits, err := q.geo.Nearby(ctx, t.ID, lon, lat, radius, limit)
		if err != nil {
			return nil, err
		}
		all = append(all, hits...)
	}
	slices.SortFunc(all, func(a, b GeoHit) int {
		return cmp.Or(cmp.Compare(a.DistanceMeters, b.DistanceMeters), cmp.Compare(a.ShopID, b.ShopID))
	})
	return all[:min(len(all), limit)], nil
}
