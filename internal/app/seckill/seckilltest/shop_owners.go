package seckilltest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
)

// Shops are the shops a seckill.ShopOwners knows, for its contract.
type Shops struct {
	Owners seckill.ShopOwners
	// Owned is a shop run by Owner; Unowned a shop run by nobody.
	Owned, Unowned, Owner int64
}

// ShopOwnersContract is what every seckill.ShopOwners must do, as its doc comment says.
// newShops returns a store holding the shops it names.
func ShopOwnersContract(t *testing.T, newShops func(t *testing.T) Shops) {
	t.Helper()
	t.Run("a shop's owner, none, or not found", func(t *testing.T) {
		t.Parallel()
		s := newShops(t)
		ctx := context.Background()
		if got, err := s.Owners.ShopOwner(ctx, s.Owned); err != nil || got != s.Owner {
			t.Fatalf("owner of shop %d = %d, %v; want %d", s.Owned, got, err, s.Owner)
		}
		if got, err := s.Owners.ShopOwner(ctx, s.Unowned); err != nil || got != 0 {
			t.Fatalf("owner of shop %d = %d, %v; want none (0)", s.Unowned, got, err)
		}
		if got, err := s.Owners.ShopOwner(ctx, newID()); !errors.Is(err, domain.ErrNotFound) {
			t.Fatalf("owner of an unknown shop = %d, %v; want domain.ErrNotFound", got, err)
		}
	})
}

// MemShopOwners is an in-memory seckill.ShopOwners: shop ids to their owners (0: none).
type MemShopOwners struct {
	mu     sync.Mutex
	owners map[int64]int64
}

var _ seckill.ShopOwners = (*MemShopOwners)(nil)

// NewMemShopOwners returns a store knowing no shop.
func NewMemShopOwners() *MemShopOwners { return &MemShopOwners{owners: map[int64]int64{}} }

// SetOwner records shopID, run by ownerID (0: nobody).
func (s *MemShopOwners) SetOwner(shopID, ownerID int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.owners[shopID] = ownerID
}

// ShopOwner implements seckill.ShopOwners.
func (s *MemShopOwners) ShopOwner(_ context.Context, shopID int64) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	owner, ok := s.owners[shopID]
	if !ok {
		return 0, fmt.Errorf("shop %d: %w", shopID, domain.ErrNotFound)
	}
	return owner, nil
}
