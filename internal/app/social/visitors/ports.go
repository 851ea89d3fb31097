package visitors

import (
	"context"
	"time"
)

// Visitors counts distinct visitors per calendar day in Redis HyperLogLogs, site-wide
// and per shop.
type Visitors interface {
	// Record counts each of visitors on the calendar day of day, site-wide (shopID 0) or
	// for one shop.
	Record(ctx context.Context, day time.Time, shopID int64, visitors []string) error
	// Count estimates the distinct visitors over all of days (calendar days), site-wide
	// (shopID 0) or of one shop.
	Count(ctx context.Context, days []time.Time, shopID int64) (int64, error)
}

// ShopOwners says who runs a shop, so that its merchant may read its visitors.
type ShopOwners interface {
	// ShopOwner returns the shop's owner (0: none), or domain.ErrNotFound.
	ShopOwner(ctx context.Context, shopID int64) (int64, error)
}
