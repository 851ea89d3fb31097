package shoptest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/dealspot/dealspot/internal/app/contracttest"
	"github.com/dealspot/dealspot/internal/app/shop"
	"github.com/dealspot/dealspot/internal/domain"
)

// ShopCache is a read-through cache of shops as the shop ports see it: the reader and
// the invalidator told after a shop changed.
type ShopCache interface {
	shop.ShopCache
	shop.Invalidator
}

// ShopCacheContract is what every shop.ShopCache with its shop.Invalidator must do, as
// their doc comments say (see contracttest.ByIDCacheContract); a shop comes back whole.
// newCache returns a cache; caches of one test may share their server.
func ShopCacheContract(t *testing.T, newCache func(t *testing.T) ShopCache) {
	t.Helper()
	contracttest.ByIDCacheContract(t, func(t *testing.T) contracttest.ByIDCache[domain.Shop] {
		c := newCache(t)
		return contracttest.ByIDCache[domain.Shop]{Get: func(ctx context.Context, id int64, load contracttest.Load[domain.Shop]) (domain.Shop, bool, error) {
			return c.Get(ctx, id, load)
		}, Changed: c.ShopChanged}
	}, func(id int64, label string) domain.Shop {
		return domain.Shop{ID: id, Name: label, TypeID: 3, Longitude: 120.1, Latitude: 30.2, Score: 45}
	}, func(s domain.Shop) string {
		if s.TypeID != 3 || s.Longitude != 120.1 || s.Latitude != 30.2 || s.Score != 45 {
			return fmt.Sprintf("%q, not whole: %+v", s.Name, s)
		}
		return s.Name
	})
}

// ShopTypeCacheContract is what every shop.ShopTypeCache must do: load the list on a
// miss, answer from the cache after, and return a failed load's error without caching
// it. newCache returns a cache of its own (the list is one key).
func ShopTypeCacheContract(t *testing.T, newCache func(t *testing.T) shop.ShopTypeCache) {
	t.Helper()
	t.Run("the list is loaded once; a failed load is not cached", func(t *testing.T) {
		t.Parallel()
		c := newCache(t)
		ctx := context.Background()
		broken := errors.New("database down")
		if _, _, err := c.Get(ctx, func(context.Context) ([]domain.ShopType, bool, error) { return nil, false, broken }); !errors.Is(err, broken) {
			t.Fatalf("get with a failing load: %v, want its error", err)
		}
		want := []domain.ShopType{{ID: newID(), Name: "food", Icon: "/f.png", Sort: 1}, {ID: newID(), Name: "KTV", Sort: 2}}
		calls := 0
		load := func(context.Context) ([]domain.ShopType, bool, error) {
			calls++
			return want, true, nil
		}
		for range 3 {
			got, found, err := c.Get(ctx, load)
			if err != nil || !found || !slices.Equal(got, want) {
				t.Fatalf("get = %+v (found %v), %v; want %+v", got, found, err, want)
			}
		}
		if calls != 1 {
			t.Fatalf("load called %d times, want once", calls)
		}
	})
}

// MemShopCache is an in-memory shop.ShopCache and shop.Invalidator: a map of answers,
// "not found" included, until the shop changes. It remembers the changes it was told.
type MemShopCache struct {
	*contracttest.MemByIDCache[domain.Shop]
	mu           sync.Mutex
	changed      []int64
	typesChanged []int64
}

var _ ShopCache = (*MemShopCache)(nil)

// NewMemShopCache returns an empty cache.
func NewMemShopCache() *MemShopCache {
	return &MemShopCache{MemByIDCache: contracttest.NewMemByIDCache[domain.Shop](nil)}
}

// ShopChanged implements shop.Invalidator.
func (c *MemShopCache) ShopChanged(_ context.Context, id int64) error {
	c.Forget(id)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.changed = append(c.changed, id)
	return nil
}

// ShopsOfTypeChanged implements shop.Invalidator: it remembers the types.
func (c *MemShopCache) ShopsOfTypeChanged(_ context.Context, typeIDs ...int64) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.typesChanged = append(c.typesChanged, typeIDs...)
	return nil
}

// TypesChanged returns the types whose lists the cache was told changed, oldest first.
func (c *MemShopCache) TypesChanged() []int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.typesChanged)
}

// Changed returns the ids the cache was told changed, oldest first.
func (c *MemShopCache) Changed() []int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.changed)
}

// MemShopTypeCache is an in-memory shop.ShopTypeCache that keeps the first list loaded
// (it never goes stale).
type MemShopTypeCache struct {
	mu    sync.Mutex
	types []domain.ShopType
	found bool
	held  bool
}

var _ shop.ShopTypeCache = (*MemShopTypeCache)(nil)

// NewMemShopTypeCache returns an empty cache.
func NewMemShopTypeCache() *MemShopTypeCache { return &MemShopTypeCache{} }

// Get implements shop.ShopTypeCache.
func (c *MemShopTypeCache) Get(ctx context.Context, load func(ctx context.Context) ([]domain.ShopType, bool, error)) ([]domain.ShopType, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.held {
		return slices.Clone(c.types), c.found, nil
	}
	types, found, err := load(ctx)
	if err != nil {
		return nil, false, err
	}
	c.types, c.found, c.held = slices.Clone(types), found, true
	return types, found, nil
}
