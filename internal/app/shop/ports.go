// Package shop holds the use cases around shops and shop types.
package shop

import (
	"context"

	"github.com/dealspot/dealspot/internal/domain"
)

// Repository reads and writes shops in the relational store.
type Repository interface {
	// ShopTypes returns every shop type ordered by sort, then id.
	ShopTypes(ctx context.Context) ([]domain.ShopType, error)
	// Shop returns one shop, or domain.ErrNotFound.
	Shop(ctx context.Context, id int64) (domain.Shop, error)
	// ShopsByIDs returns the shops with those ids in the order of ids, leaving out
	// unknown ones.
	ShopsByIDs(ctx context.Context, ids []int64) ([]domain.Shop, error)
	// Shops returns up to page.First+1 shops matching filter with id > page.After,
	// ordered by id, so callers can tell whether another page follows.
	Shops(ctx context.Context, filter domain.ShopFilter, page domain.Page) ([]domain.Shop, error)
	// ShopsOfOwner returns up to limit shops run by ownerID, by id.
	ShopsOfOwner(ctx context.Context, ownerID int64, limit int) ([]domain.Shop, error)
	// ShopPositions returns every shop's type and coordinates.
	ShopPositions(ctx context.Context) ([]domain.ShopPosition, error)
	// CreateShop stores a new shop and returns it with its id; BAD_USER_INPUT for an
	// unknown shop type.
	CreateShop(ctx context.Context, s domain.Shop) (domain.Shop, error)
	// UpdateShop changes a shop in one transaction through update and returns it as it
	// was and as it is now. Errors: domain.ErrNotFound; BAD_USER_INPUT for an unknown
	// shop type; whatever update returns.
	UpdateShop(ctx context.Context, id int64, update func(*domain.Shop) error) (before, after domain.Shop, err error)
}

// GeoHit is a shop found near a point.
type GeoHit struct {
	ShopID         int64
	DistanceMeters float64
}

// GeoIndex finds shops of a type near a point.
type GeoIndex interface {
	// Put indexes a shop's position, removing it from oldTypeID's index when its type
	// changed (0: it had none).
	Put(ctx context.Context, p domain.ShopPosition, oldTypeID int64) error
	// Rebuild replaces the whole index.
	Rebuild(ctx context.Context, positions []domain.ShopPosition) error
	// Nearby returns up to limit shops of typeID within radiusMeters, nearest first.
	Nearby(ctx context.Context, typeID int64, lon, lat, radiusMeters float64, limit int) ([]GeoHit, error)
}

// ShopCache is a read-through cache of shops by id.
type ShopCache interface {
	// Get returns the shop with id from the cache or, on a miss, from load, whose answer
	// it caches, "not found" (found false) included. The error is load's or ctx's: a
	// cache that cannot be reached only makes reads slower.
	Get(ctx context.Context, id int64, load func(ctx context.Context) (s domain.Shop, found bool, err error)) (domain.Shop, bool, error)
}

// ShopTypeCache caches the list of shop types, a hot key: a stale list is answered at
// once while it is reloaded in the background.
type ShopTypeCache interface {
	// Get returns the cached list or, when there is none, the list load returns, which it
	// caches. The error is load's or ctx's.
	Get(ctx context.Context, load func(ctx context.Context) (types []domain.ShopType, found bool, err error)) ([]domain.ShopType, bool, error)
}

// ShopListCache caches the head of each list of shops: the first shops of a type in id
// order (type 0: of every type), as many as the largest page and one more.
type ShopListCache interface {
	// Get returns typeID's cached head or, on a miss, the one load returns, which it
	// caches. The error is load's or ctx's: a cache that cannot be reached only makes
	// reads slower. The slice is shared: callers must not change it.
	Get(ctx context.Context, typeID int64, load func(ctx context.Context) (head []domain.Shop, found bool, err error)) ([]domain.Shop, bool, error)
}

// Invalidator drops cached copies of a shop after it changed.
type Invalidator interface {
	// ShopChanged is told after the database holds the new shop; an error means some
	// copies may be served until they expire.
	ShopChanged(ctx context.Context, id int64) error
	// ShopsOfTypeChanged is told after a shop joined, left or changed in the lists of
	// shops of typeIDs (a shop's type before and after a change); the list of every
	// type (0) is dropped with them. An error means some lists may be served until they
	// expire.
	ShopsOfTypeChanged(ctx context.Context, typeIDs ...int64) error
}

// ViewCounter counts the visitors of shops.
type ViewCounter interface {
	// CountView counts a view of the shop by a user (userID > 0), or else by an anonymous
	// client at clientIP. Counting never fails a read, hence no error.
	CountView(ctx context.Context, userID int64, clientIP string, shopID int64)
}
