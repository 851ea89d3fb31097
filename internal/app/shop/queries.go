package shop

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/dealspot/dealspot/internal/domain"
)

// Queries answers read-only questions about shops.
type Queries struct {
	repo   Repository
	limits domain.PageLimits
}

// NewQueries builds the shop queries; repo must not be nil.
func NewQueries(repo Repository, limits domain.PageLimits) (*Queries, error) {
	if repo == nil {
		return nil, errors.New("shop queries: nil repository")
	}
	if err := limits.Validate(); err != nil {
		return nil, fmt.Errorf("shop queries: %w", err)
	}
	return &Queries{repo: repo, limits: limits}, nil
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
