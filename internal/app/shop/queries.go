package shop

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/dealspot/dealspot/internal/domain"
)

// Deps are what the shop use cases need.
type Deps struct {
	Repo Repository
	Geo  GeoIndex
}

// Queries answers read-only questions about shops.
type Queries struct {
	repo   Repository
	geo    GeoIndex
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
	return &Queries{repo: d.Repo, geo: d.Geo, limits: limits, nearby: nearby}, nil
}

// ShopTypes lists every shop type.
func (q *Queries) ShopTypes(ctx context.Context) ([]domain.ShopType, error) {
	return q.repo.ShopTypes(ctx)
}

// Shop returns one shop; (zero, false, nil) when there is none.
func (q *Queries) Shop(ctx context.Context, id int64) (domain.Shop, bool, error) {
	if id <= 0 {
		return domain.Shop{}, false, nil
	}
	s, err := q.repo.Shop(ctx, id)
	if errors.Is(err, domain.ErrNotFound) {
		return domain.Shop{}, false, nil
	}
	if err != nil {
		return domain.Shop{}, false, fmt.Errorf("load shop %d: %w", id, err)
	}
	return s, true, nil
}

// ShopPage is one page of shops.
type ShopPage struct {
	Shops       []domain.Shop
	HasNextPage bool
}

// Shops pages through shops matching filter. first ≤ 0 means the default page size.
func (q *Queries) Shops(ctx context.Context, filter domain.ShopFilter, first int, after int64) (ShopPage, error) {
	size, err := q.limits.Size(first)
	if err != nil {
		return ShopPage{}, err
	}
	if filter.TypeID < 0 || after < 0 {
		return ShopPage{}, domain.Errorf(domain.CodeBadUserInput, "ids must be positive")
	}
	filter.Name = strings.TrimSpace(filter.Name)
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

// RebuildNearbyIndex fills the nearby index from the database (at start, or after Redis
// lost it).
func (q *Queries) RebuildNearbyIndex(ctx context.Context) (int, error) {
	positions, err := q.repo.ShopPositions(ctx)
	if err != nil {
		return 0, fmt.Errorf("rebuild nearby index: %w", err)
	}
	if err := q.geo.Rebuild(ctx, positions); err != nil {
		return 0, err
	}
	return len(positions), nil
}
