package shop

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/dealspot/dealspot/internal/domain"
)

// Deps are what the shop use cases need.
type Deps struct {
	Repo Repository
	Geo  GeoIndex
	// Shops caches shops by id; nil reads the repository every time.
	Shops ShopCache
	// Types caches the list of shop types; nil reads the repository every time.
	Types ShopTypeCache
	// Lists caches the heads of the lists of shops of a type; nil reads every page from
	// the repository.
	Lists ShopListCache
	// Views counts who views a shop; nil counts nobody.
	Views ViewCounter
	// Images tells whether a photo path of this site serves an image (nil: not checked).
	Images Images
}

// Queries answers read-only questions about shops.
type Queries struct {
	repo   Repository
	geo    GeoIndex
	shops  ShopCache
	types  ShopTypeCache
	lists  ShopListCache
	views  ViewCounter
	limits domain.PageLimits
	nearby NearbyLimits
}

// NewQueries builds the shop queries; it refuses missing dependencies and bad limits.
func NewQueries(d Deps, limits domain.PageLimits, nearby NearbyLimits) (*Queries, error) {
	if d.Repo == nil || d.Geo == nil {
		return nil, errors.New("shop queries: nil repository or geo index")
	}
	if err := limits.Validate(); err != nil {
		return nil, fmt.Errorf("shop queries: %w", err)
	}
	if nearby.DefaultRadiusMeters <= 0 || nearby.DefaultRadiusMeters > nearby.MaxRadiusMeters {
		return nil, fmt.Errorf("shop queries: bad nearby radius limits %+v", nearby)
	}
	return &Queries{repo: d.Repo, geo: d.Geo, shops: d.Shops, types: d.Types, lists: d.Lists, views: d.Views, limits: limits, nearby: nearby}, nil
}

// ShopTypes lists every shop type. The list is a hot key: served from the cache with
// logical expiry, refreshed in the background.
func (q *Queries) ShopTypes(ctx context.Context) ([]domain.ShopType, error) {
	if q.types == nil {
		return q.repo.ShopTypes(ctx)
	}
	types, _, err := q.types.Get(ctx, func(ctx context.Context) ([]domain.ShopType, bool, error) {
		t, err := q.repo.ShopTypes(ctx)
		return t, err == nil, err
	})
	return types, err
}

// Viewer is who looks at a shop: a user (0 for anonymous) and the address of the client.
type Viewer struct {
	UserID   int64
	ClientIP string
}

// Shop returns one shop, through the cache, and counts viewer as one of its visitors;
// (zero, false, nil) when there is none.
func (q *Queries) Shop(ctx context.Context, viewer Viewer, id int64) (domain.Shop, bool, error) {
	s, found, err := q.shop(ctx, id)
	if err == nil && found && q.views != nil {
		q.views.CountView(ctx, viewer.UserID, viewer.ClientIP, id)
	}
	return s, found, err
}

func (q *Queries) shop(ctx context.Context, id int64) (domain.Shop, bool, error) {
	if id <= 0 {
		return domain.Shop{}, false, nil
	}
	load := func(ctx context.Context) (domain.Shop, bool, error) {
		s, err := q.repo.Shop(ctx, id)
		if errors.Is(err, domain.ErrNotFound) {
			return domain.Shop{}, false, nil
		}
		if err != nil {
			return domain.Shop{}, false, fmt.Errorf("load shop %d: %w", id, err)
		}
		return s, true, nil
	}
	if q.shops == nil {
		return load(ctx)
	}
	return q.shops.Get(ctx, id, load)
}

// MyShops lists the shops a runs (a MERCHANT's, or those an ADMIN owns), by id, at most
// the largest page. Errors: UNAUTHENTICATED for an anonymous caller; FORBIDDEN below
// MERCHANT.
func (q *Queries) MyShops(ctx context.Context, a domain.Actor) ([]domain.Shop, error) {
	if a.UserID <= 0 {
		return nil, domain.Errorf(domain.CodeUnauthenticated, "log in first")
	}
	if !a.Role.AtLeast(domain.RoleMerchant) {
		return nil, domain.Errorf(domain.CodeForbidden, "this needs the MERCHANT role")
	}
	// The database, not the cache: a shop just handed over shows at once.
	shops, err := q.repo.ShopsOfOwner(ctx, a.UserID, q.limits.Max)
	if err != nil {
		return nil, fmt.Errorf("list shops of user %d: %w", a.UserID, err)
	}
	return shops, nil
}

// ValidShopID tells ids that can exist from ones that cannot, before any I/O.
func ValidShopID(id string) bool {
	n, err := strconv.ParseInt(id, 10, 64)
	return err == nil && n > 0
}

// ShopPage is one page of shops.
type ShopPage struct {
	Shops       []domain.Shop
	HasNextPage bool
}

// Shops pages through shops matching filter, by id. first ≤ 0 means the default page
// size. (Shops found by name are the search's: search.Queries.ShopsByName.)
func (q *Queries) Shops(ctx context.Context, filter domain.ShopFilter, first int, after int64) (ShopPage, error) {
	size, err := q.limits.Size(first)
	if err != nil {
		return ShopPage{}, err
	}
	if filter.TypeID < 0 || after < 0 {
		return ShopPage{}, domain.Errorf(domain.CodeBadUserInput, "ids must be positive")
	}
	if q.lists != nil {
		if page, ok, err := q.shopsFromHead(ctx, filter.TypeID, size, after); err != nil || ok {
			return page, err
		}
	}
	shops, err := q.repo.Shops(ctx, filter, domain.Page{First: size, After: after})
	if err != nil {
		return ShopPage{}, fmt.Errorf("list shops: %w", err)
	}
	page := ShopPage{Shops: shops}
	if len(shops) > size {
		page.Shops, page.HasNextPage = shops[:size], true
	}
	return page, nil
}

// shopsFromHead answers a page of the shops of typeID (0: of every type) from the cached
// head of that list, the first limits.Max+1 shops in id order, as the repository would:
// the page after `after` when the head holds it whole and can tell whether another
// follows. ok is false when it cannot (a page deeper than the head), and the page must
// be read from the repository.
func (q *Queries) shopsFromHead(ctx context.Context, typeID int64, size int, after int64) (_ ShopPage, ok bool, _ error) {
	head, _, err := q.lists.Get(ctx, typeID, func(ctx context.Context) ([]domain.Shop, bool, error) {
		shops, err := q.repo.Shops(ctx, domain.ShopFilter{TypeID: typeID}, domain.Page{First: q.limits.Max})
		if err != nil {
			return nil, false, fmt.Errorf("list shops: %w", err)
		}
		return shops, true, nil
	})
	if err != nil {
		return ShopPage{}, false, err
	}
	// The head is the whole list when it is no longer than a largest page.
	whole := len(head) <= q.limits.Max
	i, found := slices.BinarySearchFunc(head, after, func(s domain.Shop, id int64) int { return cmp.Compare(s.ID, id) })
	if found {
		i++
	}
	rest := head[i:]
	switch {
	case len(rest) > size:
		return ShopPage{Shops: rest[:size:size], HasNextPage: true}, true, nil
	case whole:
		return ShopPage{Shops: rest[:len(rest):len(rest)]}, true, nil
	}
	return ShopPage{}, false, nil
}
