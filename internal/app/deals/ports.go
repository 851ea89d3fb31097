// Package deals finds the deals near a point ("deals near me"): the normal vouchers and
// the live and upcoming flash sales of the shops within a radius, sorted by distance,
// discount, the shop's score or the sale's end, and paged by a keyset cursor.
//
// It reads through the shop and voucher reads (their caches and rules): the nearby
// index finds the shops (as nearbyShops does), one query lists their vouchers and one
// round trip to the gate reads the flash sales' live stock.
package deals

import (
	"context"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/app/shop"
)

// Shops finds shops near a point (shop.Queries).
type Shops interface {
	// Within returns up to limit shops within radiusMeters of the point, nearest first,
	// with their distances; BAD_USER_INPUT for out-of-range coordinates.
	Within(ctx context.Context, lon, lat, radiusMeters float64, limit int) ([]shop.NearbyShop, error)
}

// Vouchers lists shops' vouchers as clients see them (seckill.VouchersOfShop).
type Vouchers interface {
	// OfShops lists the vouchers of the shops by shop, a flash sale's with its remaining
	// stock (the gate's, read for all of them at once).
	OfShops(ctx context.Context, shopIDs []int64) (map[int64][]seckill.VoucherView, error)
}
