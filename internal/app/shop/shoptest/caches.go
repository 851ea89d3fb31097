package shoptest

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"

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
// their doc comments say. newCache returns a cache; caches of one test may share their
// server.
func ShopCacheContract(t *testing.T, newCache func(t *testing.T) ShopCache) {
	t.Helper()
	for _, c := range []struct {
		name string
		run  func(t *testing.T, c ShopCache)
	}{
		{"a miss loads once and the answer is cached, not found included", shopCacheLoadsOnce},
		{"a load's error is returned and not cached", shopCacheError},
		{"a changed shop is loaded again", shopCacheChanged},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.run(t, newCache(t))
		})
	}
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

// countedShop is a load that counts its calls and answers s (found when s.ID is set).
type countedShop struct {
	mu    sync.Mutex
	calls int
	s     domain.Shop
	err   error
}

func (l *countedShop) load(context.Context) (domain.Shop, bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls++
	return l.s, l.s.ID != 0 && l.err == nil, l.err
}

func (l *countedShop) wantCalls(t *testing.T, want int) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.calls != want {
		t.Fatalf("load called %d times, want %d", l.calls, want)
	}
}

func getShop(t *testing.T, c ShopCache, id int64, l *countedShop) (domain.Shop, bool) {
	t.Helper()
	s, found, err := c.Get(context.Background(), id, l.load)
	if err != nil {
		t.Fatalf("get %d: %v", id, err)
	}
	return s, found
}

func shopCacheLoadsOnce(t *testing.T, c ShopCache) {
	id := newID()
	l := &countedShop{s: domain.Shop{ID: id, Name: "noodles", TypeID: 3, Longitude: 120.1, Latitude: 30.2, Score: 45}}
	for range 3 {
		if s, found := getShop(t, c, id, l); !found || s.ID != id || s.Name != "noodles" || s.Score != 45 || s.Longitude != 120.1 {
			t.Fatalf("get %d = %+v (found %v), want the loaded shop", id, s, found)
		}
	}
	l.wantCalls(t, 1)
	missing, none := newID(), &countedShop{}
	for range 2 {
		if s, found := getShop(t, c, missing, none); found {
			t.Fatalf("get of an unknown shop = %+v, want not found", s)
		}
	}
	none.wantCalls(t, 1)
}

func shopCacheError(t *testing.T, c ShopCache) {
	id := newID()
	broken := errors.New("database down")
	l := &countedShop{err: broken}
	if _, _, err := c.Get(context.Background(), id, l.load); !errors.Is(err, broken) {
		t.Fatalf("get with a failing load: %v, want its error", err)
	}
	l.err, l.s = nil, domain.Shop{ID: id, Name: "back"}
	if s, found := getShop(t, c, id, l); !found || s.Name != "back" {
		t.Fatalf("get after a failed load = %+v (found %v), want the shop loaded again", s, found)
	}
	l.wantCalls(t, 2)
}

func shopCacheChanged(t *testing.T, c ShopCache) {
	id := newID()
	l := &countedShop{s: domain.Shop{ID: id, Name: "old"}}
	getShop(t, c, id, l)
	l.s.Name = "new"
	if err := c.ShopChanged(context.Background(), id); err != nil {
		t.Fatalf("shop changed: %v", err)
	}
	if s, found := getShop(t, c, id, l); !found || s.Name != "new" {
		t.Fatalf("get after a change = %+v (found %v), want the new shop", s, found)
	}
	l.wantCalls(t, 2)
}

// MemShopCache is an in-memory shop.ShopCache and shop.Invalidator: a map of answers,
// "not found" included, until the shop changes.
type MemShopCache struct {
	mu      sync.Mutex
	answers map[int64]memShopAnswer
	changed []int64
}

type memShopAnswer struct {
	s     domain.Shop
	found bool
}

var _ ShopCache = (*MemShopCache)(nil)

// NewMemShopCache returns an empty cache.
func NewMemShopCache() *MemShopCache { return &MemShopCache{answers: map[int64]memShopAnswer{}} }

// Get implements shop.ShopCache.
func (c *MemShopCache) Get(ctx context.Context, id int64, load func(ctx context.Context) (domain.Shop, bool, error)) (domain.Shop, bool, error) {
	c.mu.Lock()
	a, ok := c.answers[id]
	c.mu.Unlock()
	if ok {
		return a.s, a.found, nil
	}
	if err := ctx.Err(); err != nil {
		return domain.Shop{}, false, err
	}
	s, found, err := load(ctx)
	if err != nil {
		return domain.Shop{}, false, err
	}
	c.mu.Lock()
	c.answers[id] = memShopAnswer{s, found}
	c.mu.Unlock()
	return s, found, nil
}

// ShopChanged implements shop.Invalidator.
func (c *MemShopCache) ShopChanged(_ context.Context, id int64) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.answers, id)
	c.changed = append(c.changed, id)
	return nil
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
