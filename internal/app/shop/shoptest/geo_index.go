package shoptest

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/dealspot/dealspot/internal/app/shop"
	"github.com/dealspot/dealspot/internal/domain"
)

// GeoIndexContract is what every shop.GeoIndex must do, as its doc comments say.
// newIndex returns an index. Rebuild replaces the whole index, so the cases of one call
// run one after another; indexes of other calls must not share keys.
func GeoIndexContract(t *testing.T, newIndex func(t *testing.T) shop.GeoIndex) {
	t.Helper()
	for _, c := range []struct {
		name string
		run  func(t *testing.T, g shop.GeoIndex)
	}{
		{"nearby finds the type's shops within the radius, nearest first, up to the limit", geoNearby},
		{"put moves a shop that changed type or place", geoPut},
		{"rebuild replaces the whole index", geoRebuild},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t, newIndex(t)) })
	}
}

// West Lake, Hangzhou, and points east of it along its parallel.
const geoLon, geoLat = 120.15, 30.25

// east is a point about meters east of West Lake.
func east(meters float64) (lon, lat float64) {
	return geoLon + meters/(111_320*math.Cos(geoLat*math.Pi/180)), geoLat
}

func put(t *testing.T, g shop.GeoIndex, shopID, typeID int64, meters float64, oldTypeID int64) domain.ShopPosition {
	t.Helper()
	lon, lat := east(meters)
	p := domain.ShopPosition{ShopID: shopID, TypeID: typeID, Longitude: lon, Latitude: lat}
	if err := g.Put(context.Background(), p, oldTypeID); err != nil {
		t.Fatalf("put %+v: %v", p, err)
	}
	return p
}

func nearby(t *testing.T, g shop.GeoIndex, typeID int64, radius float64, limit int) []shop.GeoHit {
	t.Helper()
	hits, err := g.Nearby(context.Background(), typeID, geoLon, geoLat, radius, limit)
	if err != nil {
		t.Fatalf("nearby of type %d: %v", typeID, err)
	}
	return hits
}

// wantHits checks the shops found, in order, and that each distance is the shop's within
// a metre or 0.5 % (indexes store positions with limited precision).
func wantHits(t *testing.T, hits []shop.GeoHit, shops []int64, meters []float64) {
	t.Helper()
	ids := make([]int64, len(hits))
	for i, h := range hits {
		ids[i] = h.ShopID
	}
	if !slices.Equal(ids, shops) {
		t.Fatalf("found shops %v, want %v", ids, shops)
	}
	for i, h := range hits {
		if math.Abs(h.DistanceMeters-meters[i]) > max(1, meters[i]*0.005) {
			t.Fatalf("shop %d at %.1f m, want about %.1f m", h.ShopID, h.DistanceMeters, meters[i])
		}
	}
}

func geoNearby(t *testing.T, g shop.GeoIndex) {
	typeID, other := newID(), newID()
	a, b, c, far := newID(), newID(), newID(), newID()
	put(t, g, b, typeID, 300, 0)
	put(t, g, a, typeID, 100, 0)
	put(t, g, c, typeID, 600, 0)
	put(t, g, far, typeID, 5000, 0)
	put(t, g, newID(), other, 50, 0)
	wantHits(t, nearby(t, g, typeID, 1000, 10), []int64{a, b, c}, []float64{100, 300, 600})
	wantHits(t, nearby(t, g, typeID, 1000, 2), []int64{a, b}, []float64{100, 300})
	wantHits(t, nearby(t, g, typeID, 10_000, 10), []int64{a, b, c, far}, []float64{100, 300, 600, 5000})
	wantHits(t, nearby(t, g, newID(), 10_000, 10), nil, nil) // a type without shops
}

func geoPut(t *testing.T, g shop.GeoIndex) {
	from, to := newID(), newID()
	s, stay := newID(), newID()
	put(t, g, s, from, 100, 0)
	put(t, g, stay, from, 200, 0)
	put(t, g, s, from, 400, from) // moved, same type
	wantHits(t, nearby(t, g, from, 1000, 10), []int64{stay, s}, []float64{200, 400})
	put(t, g, s, to, 400, from) // another type
	wantHits(t, nearby(t, g, from, 1000, 10), []int64{stay}, []float64{200})
	wantHits(t, nearby(t, g, to, 1000, 10), []int64{s}, []float64{400})
}

func geoRebuild(t *testing.T, g shop.GeoIndex) {
	kept, dropped := newID(), newID()
	put(t, g, newID(), kept, 100, 0) // not among the positions: gone after the rebuild
	put(t, g, newID(), dropped, 100, 0)
	a, b := newID(), newID()
	lon, lat := east(250)
	positions := []domain.ShopPosition{
		{ShopID: a, TypeID: kept, Longitude: lon, Latitude: lat},
		{ShopID: b, TypeID: kept, Longitude: geoLon, Latitude: geoLat},
	}
	if err := g.Rebuild(context.Background(), positions); err != nil {
		t.Fatalf("rebuild: %v", err)
	}
	wantHits(t, nearby(t, g, kept, 1000, 10), []int64{b, a}, []float64{0, 250})
	wantHits(t, nearby(t, g, dropped, 1000, 10), nil, nil)
}
