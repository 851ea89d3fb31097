package deals

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
)

// Sort is the order of a page of deals.
type Sort string

// The orders. Every order ends with the voucher id, so it is total.
const (
	// ByDistance: nearest shop first.
	ByDistance Sort = "DISTANCE"
	// ByDiscount: largest discount (actualValue − payValue) first.
	ByDiscount Sort = "DISCOUNT"
	// ByScore: the shop's best rating first.
	ByScore Sort = "SCORE"
	// EndingSoon: the flash sale that ends first first; normal vouchers, which do not
	// end, last.
	EndingSoon Sort = "ENDING_SOON"
)

// Valid reports whether s is a known order.
func (s Sort) Valid() bool {
	return s == ByDistance || s == ByDiscount || s == ByScore || s == EndingSoon
}

// DefaultRadiusMeters is the radius of a search that gives none (at most the maximum).
const DefaultRadiusMeters = 5000

// Limits bound searches.
type Limits struct {
	// MaxRadiusMeters is the largest radius (DEALS_NEARBY_MAX_RADIUS).
	MaxRadiusMeters int
	// MaxShops is how many of the nearest shops within the radius a search reads the
	// deals of (DEALS_NEARBY_MAX_SHOPS): past it the farthest shops' deals are left out.
	MaxShops int
	// Pages bound the page size.
	Pages domain.PageLimits
}

// Deps are what the search needs.
type Deps struct {
	Shops    Shops
	Vouchers Vouchers
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Queries answers dealsNearby.
type Queries struct {
	shops    Shops
	vouchers Vouchers
	limits   Limits
	now      func() time.Time
}

// New builds the search; it refuses missing dependencies and bad limits.
func New(l Limits, d Deps) (*Queries, error) {
	if d.Shops == nil || d.Vouchers == nil {
		return nil, errors.New("deals: nil shops or vouchers")
	}
	if l.MaxRadiusMeters <= 0 || l.MaxShops <= 0 {
		return nil, fmt.Errorf("deals: bad limits %+v", l)
	}
	if err := l.Pages.Validate(); err != nil {
		return nil, fmt.Errorf("deals: %w", err)
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	return &Queries{shops: d.Shops, vouchers: d.Vouchers, limits: l, now: d.Now}, nil
}

// Cursor is where a page ends: the order, and the last deal's sort key and voucher id.
type Cursor struct {
	Sort      Sort
	Key       int64
	VoucherID int64
}

// Query is one search.
type Query struct {
	Longitude, Latitude float64
	// RadiusMeters 0 means DefaultRadiusMeters (or the maximum, if lower).
	RadiusMeters int
	// Sort "" means ByDistance.
	Sort  Sort
	First int
	// After is the previous page's end; nil for the first page.
	After *Cursor
}

// Deal is a voucher of a shop near the point, as the search saw it.
type Deal struct {
	Voucher seckill.VoucherView
	Shop    domain.Shop
	// DistanceMeters is the shop's haversine distance from the point.
	DistanceMeters float64
	// Discount is ActualValue − PayValue, in cents.
	Discount int64
	// Live: a normal voucher, or a flash sale between its begin and end time (false for
	// an upcoming sale).
	Live bool
	// SecondsLeft is, for a flash sale, the whole seconds until it ends.
	SecondsLeft int64
	// Cursor is the deal's place in the page's order.
	Cursor Cursor
}

// FlashSale reports whether the deal is a flash sale (with a window and live stock).
func (d Deal) FlashSale() bool { return d.Voucher.FlashSale != nil }

// Page is one page of deals.
type Page struct {
	Deals       []Deal
	HasNextPage bool
}

// Nearby pages through the deals of the shops within the radius of a point: their
// normal vouchers and their flash sales that have not ended and have stock left (a sale
// sold out is left out: its live stock is read for the page anyway; units that come back
// bring it back). Off-sale vouchers are left out.
//
// Pages are keyed by (sort key, voucher id) of the last deal returned, and each page is
// the deals strictly after it in that order, computed afresh: so paging shows each deal
// once and never skips one that existed when the first page was read, whatever is created
// meanwhile (a deal created after the first page shows up only if it sorts after the
// page being read). A deal whose key moves between pages (a shop re-rated under SCORE, a
// sale's end moved under ENDING_SOON) may be shown twice or not at all, as may deals of
// the farthest shops when the radius holds more than MaxShops shops and one is added.
//
// Errors: BAD_USER_INPUT for out-of-range coordinates, radius or page size, an unknown
// order, or a cursor of another order.
func (q *Queries) Nearby(ctx context.Context, in Query) (Page, error) {
	size, err := q.limits.Pages.Size(in.First)
	if err != nil {
		return Page{}, err
	}
	if in.Sort == "" {
		in.Sort = ByDistance
	}
	radius := in.RadiusMeters
	switch {
	case !in.Sort.Valid():
		return Page{}, domain.Errorf(domain.CodeBadUserInput, "unknown sort %q", in.Sort)
	case radius < 0 || radius > q.limits.MaxRadiusMeters:
		return Page{}, domain.Errorf(domain.CodeBadUserInput, "radius must be between 1 and %d meters", q.limits.MaxRadiusMeters)
	case radius == 0:
		radius = min(DefaultRadiusMeters, q.limits.MaxRadiusMeters)
	}
	if in.After != nil && (in.After.Sort != in.Sort || in.After.VoucherID <= 0) {
		return Page{}, domain.Errorf(domain.CodeBadUserInput, "after: a cursor of dealsNearby with sort %s", in.Sort)
	}
	near, err := q.shops.Within(ctx, in.Longitude, in.Latitude, float64(radius), q.limits.MaxShops)
	if err != nil {
		return Page{}, err
	}
	ids := make([]int64, len(near))
	for i, n := range near {
		ids[i] = n.Shop.ID
	}
	vouchers, err := q.vouchers.OfShops(ctx, ids)
	if err != nil {
		return Page{}, fmt.Errorf("deals nearby: %w", err)
	}
	now := q.now()
	var all []Deal
	for _, n := range near {
		for _, v := range vouchers[n.Shop.ID] {
			d, ok := dealOf(v, n.Shop, n.DistanceMeters, now)
			if !ok {
				continue
			}
			d.Cursor = Cursor{Sort: in.Sort, Key: sortKey(in.Sort, d), VoucherID: v.ID}
			if in.After == nil || after(d.Cursor, *in.After) {
				all = append(all, d)
			}
		}
	}
	slices.SortFunc(all, func(a, b Deal) int { return compare(a.Cursor, b.Cursor) })
	p := Page{Deals: all}
	if len(all) > size {
		p.Deals, p.HasNextPage = all[:size], true
	}
	return p, nil
}

// dealOf is v of shop s at distance d as a deal at now; false when it is no deal: off
// sale, a flash sale ended or without stock left.
func dealOf(v seckill.VoucherView, s domain.Shop, distance float64, now time.Time) (Deal, bool) {
	if v.Status == domain.VoucherOffSale {
		return Deal{}, false
	}
	d := Deal{Voucher: v, Shop: s, DistanceMeters: distance, Discount: v.ActualValue - v.PayValue, Live: true}
	if fs := v.FlashSale; fs != nil {
		if !now.Before(fs.EndTime) || v.Remaining <= 0 {
			return Deal{}, false
		}
		d.Live = !now.Before(fs.BeginTime)
		d.SecondsLeft = int64(fs.EndTime.Sub(now) / time.Second)
	}
	return d, true
}

// sortKey is the deal's key in order s, ascending: what sorts first has the lowest key.
func sortKey(s Sort, d Deal) int64 {
	switch s {
	case ByDiscount:
		return -d.Discount
	case ByScore:
		return -int64(d.Shop.Score)
	case EndingSoon:
		if d.Voucher.FlashSale == nil {
			return math.MaxInt64
		}
		return d.Voucher.FlashSale.EndTime.UnixNano()
	default:
		// Millimetres: the same stored coordinates give the same key on every page.
		return int64(math.Round(d.DistanceMeters * 1000))
	}
}

func compare(a, b Cursor) int {
	return cmp.Or(cmp.Compare(a.Key, b.Key), cmp.Compare(a.VoucherID, b.VoucherID))
}

// after reports whether c sorts strictly after the cursor end.
func after(c, end Cursor) bool { return compare(c, end) > 0 }
