package testsupport

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dealspot/dealspot/internal/app/shop"
	"github.com/dealspot/dealspot/internal/domain"
)

// CountingShops is a shop.Repository that counts the calls reaching the repository it
// wraps, so tests can tell how many reads a cache let through to the database.
type CountingShops struct {
	next shop.Repository
	// delay is added to every Shop call, widening the window in which concurrent readers
	// of a cold key overlap with its load.
	delay time.Duration

	calls atomic.Int64
	mu    sync.Mutex
	loads map[int64]int64 // shop id → Shop calls
}

var _ shop.Repository = (*CountingShops)(nil)

// NewCountingShops wraps next; every Shop call takes at least delay.
func NewCountingShops(next shop.Repository, delay time.Duration) *CountingShops {
	return &CountingShops{next: next, delay: delay, loads: map[int64]int64{}}
}

// Calls returns how many calls of any method reached the wrapped repository.
func (c *CountingShops) Calls() int64 { return c.calls.Load() }

// Loads returns how many times Shop(id) reached the wrapped repository.
func (c *CountingShops) Loads(id int64) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.loads[id]
}

// ShopTypes implements shop.Repository.
func (c *CountingShops) ShopTypes(ctx context.Context) ([]domain.ShopType, error) {
	c.calls.Add(1)
	return c.next.ShopTypes(ctx)
}

// Shop implements shop.Repository.
func (c *CountingShops) Shop(ctx context.Context, id int64) (domain.Shop, error) {
	c.calls.Add(1)
	c.mu.Lock()
	c.loads[id]++
	c.mu.Unlock()
	if c.delay > 0 {
		select {
		case <-ctx.Done():
			return domain.Shop{}, ctx.Err()
		case <-time.After(c.delay):
		}
	}
	return c.next.Shop(ctx, id)
}

// ShopsByIDs implements shop.Repository.
func (c *CountingShops) ShopsByIDs(ctx context.Context, ids []int64) ([]domain.Shop, error) {
	c.calls.Add(1)
	return c.next.ShopsByIDs(ctx, ids)
}

// Shops implements shop.Repository.
func (c *CountingShops) Shops(ctx context.Context, filter domain.ShopFilter, page domain.Page) ([]domain.Shop, error) {
	c.calls.Add(1)
	return c.next.Shops(ctx, filter, page)
}

// ShopsOfOwner implements shop.Repository.
func (c *CountingShops) ShopsOfOwner(ctx context.Context, ownerID int64, limit int) ([]domain.Shop, error) {
	c.calls.Add(1)
	return c.next.ShopsOfOwner(ctx, ownerID, limit)
}

// ShopPositions implements shop.Repository.
func (c *CountingShops) ShopPositions(ctx context.Context) ([]domain.ShopPosition, error) {
	c.calls.Add(1)
	return c.next.ShopPositions(ctx)
}

// CreateShop implements shop.Repository.
func (c *CountingShops) CreateShop(ctx context.Context, s domain.Shop) (domain.Shop, error) {
	c.calls.Add(1)
	return c.next.CreateShop(ctx, s)
}

// UpdateShop implements shop.Repository.
func (c *CountingShops) UpdateShop(ctx context.Context, id int64, update func(*domain.Shop) error) (before, after domain.Shop, err error) {
	c.calls.Add(1)
	return c.next.UpdateShop(ctx, id, update)
}
