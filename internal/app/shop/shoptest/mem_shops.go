package shoptest

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/dealspot/dealspot/internal/app/shop"
	"github.com/dealspot/dealspot/internal/domain"
)

// MemShops is an in-memory shop.Repository and shop.OwnerStore.
type MemShops struct {
	mu     sync.Mutex
	types  map[int64]domain.ShopType
	shops  map[int64]domain.Shop
	users  map[int64]bool
	lastID int64
}

var (
	_ shop.Repository = (*MemShops)(nil)
	_ shop.OwnerStore = (*MemShops)(nil)
)

// NewMemShops returns a store without shops, shop types or users.
func NewMemShops() *MemShops {
	return &MemShops{types: map[int64]domain.ShopType{}, shops: map[int64]domain.Shop{}, users: map[int64]bool{}}
}

// CreateShopType stores a shop type and returns it with its id.
func (r *MemShops) CreateShopType(t domain.ShopType) domain.ShopType {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lastID++
	t.ID = r.lastID
	r.types[t.ID] = t
	return t
}

// AddUser makes userID a user the store knows (one that may run a shop).
func (r *MemShops) AddUser(userID int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.users[userID] = true
}

// ShopTypes implements shop.Repository.
func (r *MemShops) ShopTypes(context.Context) ([]domain.ShopType, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := slices.Collect(maps.Values(r.types))
	slices.SortFunc(out, func(a, b domain.ShopType) int {
		return cmp.Or(cmp.Compare(a.Sort, b.Sort), cmp.Compare(a.ID, b.ID))
	})
	return out, nil
}

// Shop implements shop.Repository.
func (r *MemShops) Shop(_ context.Context, id int64) (domain.Shop, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, ok := r.shops[id]
	if !ok {
		return domain.Shop{}, fmt.Errorf("shop %d: %w", id, domain.ErrNotFound)
	}
	return s, nil
}

// ShopsByIDs implements shop.Repository.
func (r *MemShops) ShopsByIDs(_ context.Context, ids []int64) ([]domain.Shop, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []domain.Shop
	for _, id := range ids {
		if s, ok := r.shops[id]; ok {
			out = append(out, s)
		}
	}
	return out, nil
}

// Shops implements shop.Repository.
func (r *MemShops) Shops(_ context.Context, filter domain.ShopFilter, page domain.Page) ([]domain.Shop, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []domain.Shop
	for _, id := range slices.Sorted(maps.Keys(r.shops)) {
		s := r.shops[id]
		switch {
		case id <= page.After:
		case filter.TypeID != 0 && s.TypeID != filter.TypeID:
		default:
			out = append(out, s)
		}
		if len(out) > max(page.First, 0) {
			break
		}
	}
	return out, nil
}

// ShopPositions implements shop.Repository.
func (r *MemShops) ShopPositions(context.Context) ([]domain.ShopPosition, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []domain.ShopPosition
	for _, id := range slices.Sorted(maps.Keys(r.shops)) {
		s := r.shops[id]
		out = append(out, domain.ShopPosition{ShopID: id, TypeID: s.TypeID, Longitude: s.Longitude, Latitude: s.Latitude})
	}
	return out, nil
}

// CreateShop implements shop.Repository.
func (r *MemShops) CreateShop(_ context.Context, s domain.Shop) (domain.Shop, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.types[s.TypeID]; !ok {
		return domain.Shop{}, domain.Errorf(domain.CodeBadUserInput, "unknown shop type")
	}
	r.lastID++
	s.ID = r.lastID
	r.shops[s.ID] = s
	return s, nil
}

// UpdateShop implements shop.Repository: update sees a copy, saved only when it
// succeeds.
func (r *MemShops) UpdateShop(_ context.Context, id int64, update func(*domain.Shop) error) (before, after domain.Shop, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	before, ok := r.shops[id]
	if !ok {
		return domain.Shop{}, domain.Shop{}, fmt.Errorf("shop %d: %w", id, domain.ErrNotFound)
	}
	after = before
	if err := update(&after); err != nil {
		return domain.Shop{}, domain.Shop{}, err
	}
	after.ID = id
	if _, ok := r.types[after.TypeID]; !ok {
		return domain.Shop{}, domain.Shop{}, domain.Errorf(domain.CodeBadUserInput, "unknown shop type")
	}
	r.shops[id] = after
	return before, after, nil
}

// SetShopOwner implements shop.OwnerStore.
func (r *MemShops) SetShopOwner(_ context.Context, shopID, userID int64) (domain.Shop, int64, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.users[userID] {
		return domain.Shop{}, 0, domain.Errorf(domain.CodeBadUserInput, "no user %d", userID)
	}
	s, ok := r.shops[shopID]
	if !ok {
		return domain.Shop{}, 0, fmt.Errorf("shop %d: %w", shopID, domain.ErrNotFound)
	}
	previous := s.OwnerID
	s.OwnerID = userID
	r.shops[shopID] = s
	return s, previous, nil
}

// ShopsOfOwner implements shop.Repository.
func (r *MemShops) ShopsOfOwner(_ context.Context, ownerID int64, limit int) ([]domain.Shop, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []domain.Shop
	for _, s := range r.shops {
		if s.OwnerID == ownerID {
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b domain.Shop) int { return cmp.Compare(a.ID, b.ID) })
	return out[:min(len(out), max(limit, 0))], nil
}
