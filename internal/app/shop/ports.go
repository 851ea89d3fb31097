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
	// Shops returns up to page.First+1 shops matching filter with id > page.After,
	// ordered by id, so callers can tell whether another page follows.
	Shops(ctx context.Context, filter domain.ShopFilter, page domain.Page) ([]domain.Shop, error)
	// CreateShop stores a new shop and returns it with its id.
	CreateShop(ctx context.Context, s domain.Shop) (domain.Shop, error)
}
