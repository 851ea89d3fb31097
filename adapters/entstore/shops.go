package entstore

import (
	"context"
	"fmt"

	"entgo.io/ent/dialect"

	"github.com/dealspot/dealspot/ent"
	entshop "github.com/dealspot/dealspot/ent/shop"
	"github.com/dealspot/dealspot/ent/shoptype"
	"github.com/dealspot/dealspot/ent/user"
	"github.com/dealspot/dealspot/internal/app/shop"
	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/domain"
)

// Shops reads and writes shops and shop types.
type Shops struct {
	client  *ent.Client
	dialect string
}

var _ shop.Repository = (*Shops)(nil)
var _ notes.Shops = (*Shops)(nil)

// Shops returns the shop repository.
func (s *Store) Shops() *Shops { return &Shops{client: s.client, dialect: s.dialect} }

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

// ShopIDs lists the id of every shop (the id filter's source).
func (r *Shops) ShopIDs(ctx context.Context) ([]int64, error) {
	ids, err := r.client.Shop.Query().IDs(ctx)
	if err != nil {
		return nil, fmt.Errorf("list shop ids: %w", err)
	}
	return ids, nil
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
// by id, so callers can tell whether another page follows.
func (r *Shops) Shops(ctx context.Context, filter domain.ShopFilter, page domain.Page) ([]domain.Shop, error) {
	q := r.client.Shop.Query()
	if filter.TypeID != 0 {
		q.Where(entshop.TypeID(filter.TypeID))
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

// ShopsOfOwner returns up to limit shops run by ownerID, by id.
func (r *Shops) ShopsOfOwner(ctx context.Context, ownerID int64, limit int) ([]domain.Shop, error) {
	rows, err := r.client.Shop.Query().Where(entshop.OwnerID(ownerID)).Order(entshop.ByID()).Limit(max(limit, 0)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list shops of owner %d: %w", ownerID, err)
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

// UpdateShop applies update to the shop with that id inside one transaction (the row
// is locked on PostgreSQL) and returns the stored result together with the shop as it was
// before. Its sold count is left to the orders that move it. Errors: domain.ErrNotFound; BAD_USER_INPUT for an unknown shop type; whatever
// update returns.
func (r *Shops) UpdateShop(ctx context.Context, id int64, update func(*domain.Shop) error) (before, after domain.Shop, err error) {
	err = WithTx(ctx, r.client, func(tx *ent.Tx) error {
		q := tx.Shop.Query().Where(entshop.ID(id))
		if r.dialect == dialect.Postgres {
			q.ForUpdate()
		}
		row, err := q.Only(ctx)
		if err != nil {
			return notFound(err, "shop")
		}
		before = toShop(row)
		after = before
		if err := update(&after); err != nil {
			return err
		}
		after.ID = id
		saved, err := tx.Shop.UpdateOneID(id).
			SetName(after.Name).
			SetTypeID(after.TypeID).
			SetImages(after.Images).
			SetArea(after.Area).
			SetAddress(after.Address).
			SetLongitude(after.Longitude).
			SetLatitude(after.Latitude).
			SetAvgPrice(after.AvgPrice).
			SetComments(after.Comments).
			SetScore(after.Score).
			SetOpenHours(after.OpenHours).
			Save(ctx)
		if err != nil {
			return translate(err, "shop", domain.CodeBadUserInput, "unknown shop type")
		}
		after = toShop(saved)
		return nil
	})
	if err != nil {
		return domain.Shop{}, domain.Shop{}, fmt.Errorf("update shop %d: %w", id, err)
	}
	return before, after, nil
}

// ShopsByIDs returns the shops with those ids, in the order of ids; unknown ids are left
// out.
func (r *Shops) ShopsByIDs(ctx context.Context, ids []int64) ([]domain.Shop, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	rows, err := r.client.Shop.Query().Where(entshop.IDIn(ids...)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("load shops by id: %w", err)
	}
	byID := make(map[int64]domain.Shop, len(rows))
	for _, row := range rows {
		byID[row.ID] = toShop(row)
	}
	out := make([]domain.Shop, 0, len(ids))
	for _, id := range ids {
		if s, ok := byID[id]; ok {
			out = append(out, s)
		}
	}
	return out, nil
}

// ShopPositions returns every shop's type and coordinates, for rebuilding the nearby
// index, in id order.
func (r *Shops) ShopPositions(ctx context.Context) ([]domain.ShopPosition, error) {
	var rows []struct {
		ID        int64   `json:"id"`
		TypeID    int64   `json:"type_id"`
		Longitude float64 `json:"longitude"`
		Latitude  float64 `json:"latitude"`
	}
	err := r.client.Shop.Query().Order(entshop.ByID()).
		Select(entshop.FieldID, entshop.FieldTypeID, entshop.FieldLongitude, entshop.FieldLatitude).
		Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("load shop positions: %w", err)
	}
	out := make([]domain.ShopPosition, len(rows))
	for i, row := range rows {
		out[i] = domain.ShopPosition{ShopID: row.ID, TypeID: row.TypeID, Longitude: row.Longitude, Latitude: row.Latitude}
	}
	return out, nil
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
		// Reviews a shop comes with (the demo shops') count as ratings of its score.
		SetRatingCount(s.Comments).
		SetRatingSum(int64(s.Score) * int64(s.Comments) / 10).
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
		OwnerID:   deref(s.OwnerID),
		CreatedAt: s.CreatedAt,
		UpdatedAt: s.UpdatedAt,
	}
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// ShopOwner returns the merchant who runs the shop (0: none), or domain.ErrNotFound.
func (r *Shops) ShopOwner(ctx context.Context, shopID int64) (int64, error) {
	s, err := r.client.Shop.Get(ctx, shopID)
	if err != nil {
		return 0, fmt.Errorf("read owner of shop %d: %w", shopID, notFound(err, "shop"))
	}
	return deref(s.OwnerID), nil
}

// SetShopOwner makes userID the shop's owner and returns the shop and its previous owner
// (0: none), in one transaction that holds the user's row (PostgreSQL: FOR SHARE; SQLite:
// the database's write lock), so that a concurrent DemoteMerchantWithoutShops of the
// user either sees this shop or finishes first. Errors: domain.ErrNotFound for an unknown
// shop, BAD_USER_INPUT for an unknown user.
func (r *Shops) SetShopOwner(ctx context.Context, shopID, userID int64) (domain.Shop, int64, error) {
	var out domain.Shop
	var previous int64
	err := WithTx(ctx, r.client, func(tx *ent.Tx) error {
		uq := tx.User.Query().Where(user.ID(userID))
		sq := tx.Shop.Query().Where(entshop.ID(shopID))
		if r.dialect == dialect.Postgres {
			uq.ForShare()
			sq.ForUpdate()
		}
		if _, err := uq.OnlyID(ctx); ent.IsNotFound(err) {
			return domain.Errorf(domain.CodeBadUserInput, "no user %d", userID)
		} else if err != nil {
			return fmt.Errorf("look up user %d: %w", userID, err)
		}
		row, err := sq.Only(ctx)
		if err != nil {
			return fmt.Errorf("set owner of shop %d: %w", shopID, notFound(err, "shop"))
		}
		previous = deref(row.OwnerID)
		saved, err := tx.Shop.UpdateOneID(shopID).SetOwnerID(userID).Save(ctx)
		if err != nil {
			return fmt.Errorf("set owner of shop %d: %w", shopID, notFound(err, "shop"))
		}
		out = toShop(saved)
		return nil
	})
	if err != nil {
		return domain.Shop{}, 0, err
	}
	return out, previous, nil
}
