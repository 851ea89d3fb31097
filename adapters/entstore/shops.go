package entstore

import (
	"context"
	"fmt"

	"github.com/dealspot/dealspot/ent"
	entshop "github.com/dealspot/dealspot/ent/shop"
	"github.com/dealspot/dealspot/ent/shoptype"
	"github.com/dealspot/dealspot/internal/app/shop"
	"github.com/dealspot/dealspot/internal/domain"
)

// Shops reads and writes shops and shop types.
type Shops struct {
	client *ent.Client
}

var _ shop.Repository = (*Shops)(nil)

// Shops returns the shop repository.
func (s *Store) Shops() *Shops { return &Shops{client: s.client} }

// ShopTypes returns every shop type ordered by sort, then id.
func (r *Shops) ShopTypes(ctx context.Context) ([]domain.ShopType, error) {
	rows, err := r.client.ShopType.Query().
		Order(shoptype.BySort(), shoptype.ByID()).
		All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list shop types: %w", err)
	}
	out := make([]domain.ShopType, len(rows))
	for i, t := range rows {
		out[i] = toShopType(t)
	}
	return out, nil
}

// Shop returns one shop, or domain.ErrNotFound.
func (r *Shops) Shop(ctx context.Context, id int64) (domain.Shop, error) {
	row, err := r.client.Shop.Get(ctx, id)
	if err != nil {
		return domain.Shop{}, fmt.Errorf("load shop %d: %w", id, notFound(err, "shop"))
	}
	return toShop(row), nil
}

// Shops returns up to page.First+1 shops matching filter with id > page.After, ordered
// by id, so callers can tell whether another page follows. The name filter is a
// case-insensitive substring match.
func (r *Shops) Shops(ctx context.Context, filter domain.ShopFilter, page domain.Page) ([]domain.Shop, error) {
	q := r.client.Shop.Query()
	if filter.TypeID != 0 {
		q.Where(entshop.TypeID(filter.TypeID))
	}
	if filter.Name != "" {
		q.Where(entshop.NameContainsFold(filter.Name))
	}
	if page.After > 0 {
		q.Where(entshop.IDGT(page.After))
	}
	rows, err := q.Order(entshop.ByID()).Limit(max(page.First, 0) + 1).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list shops: %w", err)
	}
	out := make([]domain.Shop, len(rows))
	for i, s := range rows {
		out[i] = toShop(s)
	}
	return out, nil
}

// CreateShop stores a new shop and returns it with its id. An unknown shop type is a
// BAD_USER_INPUT error.
func (r *Shops) CreateShop(ctx context.Context, s domain.Shop) (domain.Shop, error) {
	row, err := shopCreate(r.client.Shop.Create(), s).Save(ctx)
	if err != nil {
		return domain.Shop{}, fmt.Errorf("create shop: %w",
			translate(err, "shop", domain.CodeBadUserInput, "unknown shop type"))
	}
	return toShop(row), nil
}

// CreateShopType stores a new shop type and returns it with its id.
func (r *Shops) CreateShopType(ctx context.Context, t domain.ShopType) (domain.ShopType, error) {
	row, err := r.client.ShopType.Create().
		SetName(t.Name).
		SetIcon(t.Icon).
		SetSort(t.Sort).
		Save(ctx)
	if err != nil {
		return domain.ShopType{}, fmt.Errorf("create shop type: %w", notFound(err, "shop type"))
	}
	return toShopType(row), nil
}

// shopCreate fills a create builder from s; the id always comes from the database.
func shopCreate(c *ent.ShopCreate, s domain.Shop) *ent.ShopCreate {
	return c.SetName(s.Name).
		SetTypeID(s.TypeID).
		SetImages(s.Images).
		SetArea(s.Area).
		SetAddress(s.Address).
		SetLongitude(s.Longitude).
		SetLatitude(s.Latitude).
		SetAvgPrice(s.AvgPrice).
		SetSold(s.Sold).
		SetComments(s.Comments).
		SetScore(s.Score).
		SetOpenHours(s.OpenHours)
}

func toShopType(t *ent.ShopType) domain.ShopType {
	return domain.ShopType{ID: t.ID, Name: t.Name, Icon: t.Icon, Sort: t.Sort}
}

func toShop(s *ent.Shop) domain.Shop {
	return domain.Shop{
		ID:        s.ID,
		Name:      s.Name,
		TypeID:    s.TypeID,
		Images:    s.Images,
		Area:      s.Area,
		Address:   s.Address,
		Longitude: s.Longitude,
		Latitude:  s.Latitude,
		AvgPrice:  s.AvgPrice,
		Sold:      s.Sold,
		Comments:  s.Comments,
		Score:     s.Score,
		OpenHours: s.OpenHours,
		CreatedAt: s.CreatedAt,
		UpdatedAt: s.UpdatedAt,
	}
}
