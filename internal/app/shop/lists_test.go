package shop_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/dealspot/dealspot/internal/app/shop"
	"github.com/dealspot/dealspot/internal/app/shop/shoptest"
	"github.com/dealspot/dealspot/internal/domain"
)

// memLists is a shop.ShopListCache that keeps each head until told its type changed,
// and counts its loads.
type memLists struct {
	mu    sync.Mutex
	heads map[int64][]domain.Shop
	loads int
}

func (m *memLists) Get(ctx context.Context, typeID int64, load func(context.Context) ([]domain.Shop, bool, error)) ([]domain.Shop, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if h, ok := m.heads[typeID]; ok {
		return h, true, nil
	}
	h, found, err := load(ctx)
	if err == nil {
		m.loads++
		m.heads[typeID] = h
	}
	return h, found, err
}

// invalidator drops the shop cache's copies and the lists' heads.
type invalidator struct {
	*shoptest.MemShopCache
	lists *memLists
}

func (i invalidator) ShopsOfTypeChanged(ctx context.Context, typeIDs ...int64) error {
	i.lists.mu.Lock()
	for _, t := range append(typeIDs, 0) {
		delete(i.lists.heads, t)
	}
	i.lists.mu.Unlock()
	return i.MemShopCache.ShopsOfTypeChanged(ctx, typeIDs...)
}

// TestShopsPagesFromTheCachedHead: with a list cache, every page of every type, of
// every size after every position, is the page the repository gives; the head is read
// once per type until a shop of the type changes, and pages deeper than it still come
// from the repository. Creating, moving and renaming shops drop the heads they show in.
func TestShopsPagesFromTheCachedHead(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	limits := domain.PageLimits{Default: 2, Max: 3}
	repo, geo, cache := shoptest.NewMemShops(), shoptest.NewMemGeoIndex(), shoptest.NewMemShopCache()
	food := repo.CreateShopType(domain.ShopType{Name: "food", Sort: 1}).ID
	ktv := repo.CreateShopType(domain.ShopType{Name: "KTV", Sort: 2}).ID
	lists := &memLists{heads: map[int64][]domain.Shop{}}
	inv := invalidator{MemShopCache: cache, lists: lists}
	plain, err := shop.NewQueries(shop.Deps{Repo: repo, Geo: geo}, limits, shop.NearbyLimits{DefaultRadiusMeters: 1000, MaxRadiusMeters: 10_000})
	if err != nil {
		t.Fatal(err)
	}
	cached, err := shop.NewQueries(shop.Deps{Repo: repo, Geo: geo, Shops: cache, Lists: lists}, limits, shop.NearbyLimits{DefaultRadiusMeters: 1000, MaxRadiusMeters: 10_000})
	if err != nil {
		t.Fatal(err)
	}
	commands, err := shop.NewCommands(shop.Deps{Repo: repo, Geo: geo, Shops: cache}, inv)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	create := func(name string, typeID int64) {
		t.Helper()
		s, err := commands.CreateShop(ctx, shop.ShopInput{Name: ptr(name), TypeID: ptr(typeID), Address: ptr("1 Lake Road"),
			Longitude: ptr(120.15), Latitude: ptr(30.25)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, s.ID)
	}
	for _, name := range []string{"a", "b", "c", "d", "e", "f"} {
		create(name, food)
	}
	create("k", ktv)

	same := func(when string) {
		t.Helper()
		for _, typeID := range []int64{0, food, ktv, 999} {
			for size := 1; size <= limits.Max; size++ {
				for _, after := range append([]int64{0, ids[len(ids)-1] + 10}, ids...) {
					f := domain.ShopFilter{TypeID: typeID}
					want, werr := plain.Shops(ctx, f, size, after)
					got, gerr := cached.Shops(ctx, f, size, after)
					if werr != nil || gerr != nil || got.HasNextPage != want.HasNextPage || !slices.Equal(got.Shops, want.Shops) {
						t.Fatalf("%s: type %d, %d after %d: got %+v (%v), want %+v (%v)", when, typeID, size, after, got, gerr, want, werr)
					}
				}
			}
		}
	}
	same("first reads")
	if lists.loads != 4 {
		t.Fatalf("%d heads loaded, want one per type (all, food, KTV, an unknown one)", lists.loads)
	}
	same("read again")
	if lists.loads != 4 {
		t.Fatalf("%d heads loaded after the second reads, want still 4", lists.loads)
	}
	create("g", food)
	same("after a new food shop")
	if _, err := commands.UpdateShop(ctx, domain.Operator, ids[1], shop.ShopInput{TypeID: ptr(ktv), Name: ptr("b2")}); err != nil {
		t.Fatal(err)
	}
	same("after a food shop became KTV")
	if _, err := commands.UpdateShop(ctx, domain.Operator, ids[0], shop.ShopInput{Name: ptr("a2")}); err != nil {
		t.Fatal(err)
	}
	same("after a rename")
	if got := cache.TypesChanged(); !slices.Equal(got, []int64{food, food, food, food, food, food, ktv, food, food, ktv, food, food}) {
		t.Fatalf("types told changed %v", got)
	}
}
