package redis

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/internal/app/shop"
	"github.com/dealspot/dealspot/internal/domain"
)

// GeoIndex keeps shop positions in one GEO key per shop type (shop:geo:<typeId>).
type GeoIndex struct {
	client goredis.UniversalClient
}

var _ shop.GeoIndex = (*GeoIndex)(nil)

// NewGeoIndex returns the nearby index on client.
func NewGeoIndex(client goredis.UniversalClient) *GeoIndex { return &GeoIndex{client: client} }

func geoKey(typeID int64) string { return "shop:geo:" + strconv.FormatInt(typeID, 10) }

// geoRebuildKey is where Rebuild builds a type's index before renaming it to geoKey:
// {shop:geo:<typeId>}:rebuild, in geoKey's slot.
func geoRebuildKey(typeID int64) string { return "{" + geoKey(typeID) + "}:rebuild" }

// Put places a shop in its type's index, taking it out of oldTypeID's index when the
// type changed (oldTypeID 0: none): in one transaction on one server; on a cluster, where
// the two types' keys are in different slots, in one pipeline without a transaction (for
// a moment a search may find the shop under both types, or neither).
func (g *GeoIndex) Put(ctx context.Context, p domain.ShopPosition, oldTypeID int64) error {
	pipelined := g.client.TxPipelined
	if _, cluster := g.client.(*goredis.ClusterClient); cluster {
		pipelined = g.client.Pipelined
	}
	_, err := pipelined(ctx, func(pipe goredis.Pipeliner) error {
		if oldTypeID != 0 && oldTypeID != p.TypeID {
			pipe.ZRem(ctx, geoKey(oldTypeID), strconv.FormatInt(p.ShopID, 10))
		}
		pipe.GeoAdd(ctx, geoKey(p.TypeID), &goredis.GeoLocation{
			Name: strconv.FormatInt(p.ShopID, 10), Longitude: p.Longitude, Latitude: p.Latitude,
		})
		return nil
	})
	if err != nil {
		return fmt.Errorf("index shop %d: %w", p.ShopID, err)
	}
	return nil
}

// Rebuild replaces the whole index with positions.
func (g *GeoIndex) Rebuild(ctx context.Context, positions []domain.ShopPosition) error {
	byType := map[int64][]*goredis.GeoLocation{}
	for _, p := range positions {
		byType[p.TypeID] = append(byType[p.TypeID], &goredis.GeoLocation{
			Name: strconv.FormatInt(p.ShopID, 10), Longitude: p.Longitude, Latitude: p.Latitude,
		})
	}
	// Types that no longer have shops keep no key.
	var stale []string
	err := scanKeys(ctx, g.client, "shop:geo:*", 100, func(key string) error {
		stale = append(stale, key)
		return nil
	})
	if err != nil {
		return fmt.Errorf("list nearby index keys: %w", err)
	}
	for typeID, locs := range byType {
		// Build beside the live key and swap, so readers never see a half-built index.
		// The scratch key's hash tag is the whole live key, so both are in one cluster
		// slot (RENAME and MULTI need that on a cluster).
		tmp := geoRebuildKey(typeID)
		_, err := g.client.TxPipelined(ctx, func(pipe goredis.Pipeliner) error {
			pipe.Del(ctx, tmp)
			for i := 0; i < len(locs); i += 500 {
				pipe.GeoAdd(ctx, tmp, locs[i:min(i+500, len(locs))]...)
			}
			pipe.Rename(ctx, tmp, geoKey(typeID))
			return nil
		})
		if err != nil {
			return fmt.Errorf("rebuild nearby index of type %d: %w", typeID, err)
		}
	}
	for _, key := range stale {
		var typeID int64
		if _, err := fmt.Sscanf(key, "shop:geo:%d", &typeID); err == nil && byType[typeID] == nil {
			g.client.Del(ctx, key)
		}
	}
	return nil
}

// Nearby returns up to limit shops of typeID within radius of the point, nearest first,
// with Redis's distance.
func (g *GeoIndex) Nearby(ctx context.Context, typeID int64, lon, lat, radiusMeters float64, limit int) ([]shop.GeoHit, error) {
	locs, err := g.client.GeoSearchLocation(ctx, geoKey(typeID), &goredis.GeoSearchLocationQuery{
		GeoSearchQuery: goredis.GeoSearchQuery{
			Longitude: lon, Latitude: lat,
			Radius: radiusMeters, RadiusUnit: "m",
			Sort: "ASC", Count: limit,
		},
		WithDist: true,
	}).Result()
	if errors.Is(err, goredis.Nil) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("search nearby shops: %w", err)
	}
	hits := make([]shop.GeoHit, 0, len(locs))
	for _, l := range locs {
		id, err := strconv.ParseInt(l.Name, 10, 64)
		if err != nil {
			continue
		}
		hits = append(hits, shop.GeoHit{ShopID: id, DistanceMeters: l.Dist})
	}
	return hits, nil
}
