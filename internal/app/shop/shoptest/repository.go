package shoptest

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strconv"
	"testing"

	"github.com/dealspot/dealspot/internal/app/shop"
	"github.com/dealspot/dealspot/internal/domain"
)

// Store is a relational store as the shop ports see it.
type Store struct {
	Shops  shop.Repository
	Owners shop.OwnerStore
	// Types name two shop types the store holds, for shops to belong to.
	Types [2]int64
	// UserID names a user the store holds, to run shops.
	UserID int64
}

// RepositoryContract is what every shop.Repository must do, as its doc comments say.
// newStore returns a store; stores of one test may share their database, but no other
// case adds shops to it while a case runs (a case pages from its first shop on).
func RepositoryContract(t *testing.T, newStore func(t *testing.T) Store) {
	t.Helper()
	for _, c := range []struct {
		name string
		run  func(t *testing.T, s Store)
	}{
		{"a shop is stored and read back, alone, by ids and by position", shopsCreate},
		{"an unknown shop type is bad input; an unknown shop is not found", shopsUnknown},
		{"shops page by id, filtered by type", shopsPage},
		{"update shop saves what update did, or nothing when it fails", shopsUpdate},
		{"shop types are listed by sort, then id", shopsTypes},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.run(t, newStore(t))
		})
	}
}

// OwnerStoreContract is what every shop.OwnerStore must do, as its doc comment says.
func OwnerStoreContract(t *testing.T, newStore func(t *testing.T) Store) {
	t.Helper()
	t.Run("set shop owner records the owner; unknown shops and users are refused", func(t *testing.T) {
		t.Parallel()
		s := newStore(t)
		ctx := context.Background()
		created := s.create(t, "owned "+strconv.FormatInt(newID(), 10), s.Types[0], 120.1, 30.2)
		got, previous, err := s.Owners.SetShopOwner(ctx, created.ID, s.UserID)
		if err != nil || got.ID != created.ID || got.OwnerID != s.UserID || got.Name != created.Name || previous != 0 {
			t.Fatalf("set owner: %+v, previous %d, %v; want the shop run by %d, no owner before", got, previous, err, s.UserID)
		}
		if stored, err := s.Shops.Shop(ctx, created.ID); err != nil || stored.OwnerID != s.UserID {
			t.Fatalf("owned shop reads %+v, %v; want owner %d", stored, err, s.UserID)
		}
		if _, previous, err := s.Owners.SetShopOwner(ctx, created.ID, s.UserID); err != nil || previous != s.UserID {
			t.Fatalf("set owner again: previous %d, %v; want %d", previous, err, s.UserID)
		}
		if _, _, err := s.Owners.SetShopOwner(ctx, newID(), s.UserID); !errors.Is(err, domain.ErrNotFound) {
			t.Fatalf("owner of an unknown shop: %v, want domain.ErrNotFound", err)
		}
		if _, _, err := s.Owners.SetShopOwner(ctx, created.ID, newID()); domain.ErrorCode(err) != domain.CodeBadUserInput {
			t.Fatalf("an unknown user as owner: %v, want BAD_USER_INPUT", err)
		}
		// The shops of an owner, by id, at most limit.
		second := s.create(t, "owned too "+strconv.FormatInt(newID(), 10), s.Types[1], 120.2, 30.3)
		if _, _, err := s.Owners.SetShopOwner(ctx, second.ID, s.UserID); err != nil {
			t.Fatal(err)
		}
		mine, err := s.Shops.ShopsOfOwner(ctx, s.UserID, 100)
		if err != nil || len(mine) < 2 || !slices.IsSortedFunc(mine, func(a, b domain.Shop) int { return cmp.Compare(a.ID, b.ID) }) ||
			!slices.ContainsFunc(mine, func(x domain.Shop) bool { return x.ID == created.ID }) ||
			!slices.ContainsFunc(mine, func(x domain.Shop) bool { return x.ID == second.ID }) {
			t.Fatalf("ShopsOfOwner = %+v, %v; want both shops, by id", mine, err)
		}
		for _, x := range mine {
			if x.OwnerID != s.UserID {
				t.Fatalf("ShopsOfOwner lists %+v, run by another", x)
			}
		}
		if one, err := s.Shops.ShopsOfOwner(ctx, s.UserID, 1); err != nil || len(one) != 1 || one[0].ID != mine[0].ID {
			t.Fatalf("ShopsOfOwner with limit 1 = %+v, %v", one, err)
		}
		if none, err := s.Shops.ShopsOfOwner(ctx, newID(), 100); err != nil || len(none) != 0 {
			t.Fatalf("ShopsOfOwner of a user without shops = %+v, %v", none, err)
		}
	})
}

// create stores a shop with every field set.
func (s Store) create(t *testing.T, name string, typeID int64, lon, lat float64) domain.Shop {
	t.Helper()
	want := domain.Shop{Name: name, TypeID: typeID, Images: "a.jpg,b.jpg", Area: "West Lake", Address: "1 Lake Road",
		Longitude: lon, Latitude: lat, AvgPrice: 8800, Score: 45, OpenHours: "10:00-22:00"}
	got, err := s.Shops.CreateShop(context.Background(), want)
	if err != nil {
		t.Fatalf("create shop: %v", err)
	}
	want.ID = got.ID
	if got.ID <= 0 || !sameShop(got, want) {
		t.Fatalf("created %+v, want %+v with an id", got, want)
	}
	return got
}

// sameShop compares what a client may set.
func sameShop(a, b domain.Shop) bool {
	return a.ID == b.ID && a.Name == b.Name && a.TypeID == b.TypeID && a.Images == b.Images && a.Area == b.Area &&
		a.Address == b.Address && a.Longitude == b.Longitude && a.Latitude == b.Latitude && a.AvgPrice == b.AvgPrice &&
		a.Score == b.Score && a.OpenHours == b.OpenHours && a.OwnerID == b.OwnerID
}

func shopIDs(shops []domain.Shop) []int64 {
	out := make([]int64, len(shops))
	for i, s := range shops {
		out[i] = s.ID
	}
	return out
}

func shopsCreate(t *testing.T, s Store) {
	ctx := context.Background()
	a := s.create(t, "first "+strconv.FormatInt(newID(), 10), s.Types[0], 120.1, 30.2)
	b := s.create(t, "second "+strconv.FormatInt(newID(), 10), s.Types[1], -73.9, 40.7)
	if got, err := s.Shops.Shop(ctx, a.ID); err != nil || !sameShop(got, a) {
		t.Fatalf("shop %d = %+v, %v; want %+v", a.ID, got, err, a)
	}
	got, err := s.Shops.ShopsByIDs(ctx, []int64{b.ID, newID(), a.ID})
	if err != nil || len(got) != 2 || !sameShop(got[0], b) || !sameShop(got[1], a) {
		t.Fatalf("shops by ids [b, unknown, a] = %+v, %v; want b, a", got, err)
	}
	if got, err := s.Shops.ShopsByIDs(ctx, nil); err != nil || len(got) != 0 {
		t.Fatalf("shops by no ids = %+v, %v; want none", got, err)
	}
	positions, err := s.Shops.ShopPositions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []domain.ShopPosition{
		{ShopID: a.ID, TypeID: a.TypeID, Longitude: a.Longitude, Latitude: a.Latitude},
		{ShopID: b.ID, TypeID: b.TypeID, Longitude: b.Longitude, Latitude: b.Latitude},
	} {
		if !slices.Contains(positions, want) {
			t.Fatalf("positions lack %+v", want)
		}
	}
}

func shopsUnknown(t *testing.T, s Store) {
	ctx := context.Background()
	_, err := s.Shops.CreateShop(ctx, domain.Shop{Name: "nowhere", TypeID: newID(), Address: "x", Longitude: 1, Latitude: 1})
	if domain.ErrorCode(err) != domain.CodeBadUserInput {
		t.Fatalf("shop of an unknown type: %v, want BAD_USER_INPUT", err)
	}
	if _, err := s.Shops.Shop(ctx, newID()); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("unknown shop: %v, want domain.ErrNotFound", err)
	}
}

func shopsPage(t *testing.T, s Store) {
	ctx := context.Background()
	tag := "Page" + strconv.FormatInt(newID(), 10)
	var ids []int64
	for i, typeID := range []int64{s.Types[0], s.Types[1], s.Types[0], s.Types[0]} {
		ids = append(ids, s.create(t, tag+" shop "+strconv.Itoa(i), typeID, 120, 30).ID)
	}
	list := func(filter domain.ShopFilter, page domain.Page) []int64 {
		t.Helper()
		got, err := s.Shops.Shops(ctx, filter, page)
		if err != nil {
			t.Fatalf("shops %+v %+v: %v", filter, page, err)
		}
		return shopIDs(got)
	}
	// The case's store holds no shop after its own but its own.
	from := domain.Page{First: 10, After: ids[0] - 1}
	if got := list(domain.ShopFilter{}, from); !slices.Equal(got, ids) {
		t.Fatalf("shops after %d = %v, want %v (by id)", from.After, got, ids)
	}
	// Up to First+1, so a caller sees another page follows.
	if got := list(domain.ShopFilter{}, domain.Page{First: 2, After: ids[0] - 1}); !slices.Equal(got, ids[:3]) {
		t.Fatalf("first 2 = %v, want %v", got, ids[:3])
	}
	if got := list(domain.ShopFilter{}, domain.Page{First: 2, After: ids[1]}); !slices.Equal(got, ids[2:]) {
		t.Fatalf("after %d = %v, want %v", ids[1], got, ids[2:])
	}
	if got := list(domain.ShopFilter{TypeID: s.Types[0]}, from); !slices.Equal(got, []int64{ids[0], ids[2], ids[3]}) {
		t.Fatalf("shops of type %d = %v, want %v", s.Types[0], got, []int64{ids[0], ids[2], ids[3]})
	}
	// The page holds shops of the type only, by id.
	got, err := s.Shops.Shops(ctx, domain.ShopFilter{TypeID: s.Types[1]}, domain.Page{First: 1000, After: ids[0] - 1})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(shopIDs(got), ids[1]) || !slices.IsSorted(shopIDs(got)) {
		t.Fatalf("shops of type %d = %v, want %d among them, by id", s.Types[1], shopIDs(got), ids[1])
	}
	for _, x := range got {
		if x.TypeID != s.Types[1] {
			t.Fatalf("shops of type %d include %+v", s.Types[1], x)
		}
	}
}

func shopsUpdate(t *testing.T, s Store) {
	ctx := context.Background()
	old := s.create(t, "before "+strconv.FormatInt(newID(), 10), s.Types[0], 120.1, 30.2)
	before, after, err := s.Shops.UpdateShop(ctx, old.ID, func(x *domain.Shop) error {
		if !sameShop(*x, old) {
			t.Errorf("update sees %+v, want the shop as stored %+v", *x, old)
		}
		x.Name, x.TypeID, x.Longitude, x.Latitude = old.Name+" after", s.Types[1], 121.5, 31.2
		return nil
	})
	want := old
	want.Name, want.TypeID, want.Longitude, want.Latitude = old.Name+" after", s.Types[1], 121.5, 31.2
	if err != nil || !sameShop(before, old) || !sameShop(after, want) {
		t.Fatalf("update: before %+v, after %+v, %v; want %+v then %+v", before, after, err, old, want)
	}
	if stored, err := s.Shops.Shop(ctx, old.ID); err != nil || !sameShop(stored, want) {
		t.Fatalf("after the update the shop is %+v, %v", stored, err)
	}
	refused := errors.New("refused")
	if _, _, err := s.Shops.UpdateShop(ctx, old.ID, func(x *domain.Shop) error {
		x.Name = "never"
		return refused
	}); !errors.Is(err, refused) {
		t.Fatalf("failed update: %v, want update's error", err)
	}
	if _, _, err := s.Shops.UpdateShop(ctx, old.ID, func(x *domain.Shop) error {
		x.TypeID = newID()
		return nil
	}); domain.ErrorCode(err) != domain.CodeBadUserInput {
		t.Fatalf("update to an unknown type: %v, want BAD_USER_INPUT", err)
	}
	if stored, err := s.Shops.Shop(ctx, old.ID); err != nil || !sameShop(stored, want) {
		t.Fatalf("after failed updates the shop is %+v, %v; want it unchanged", stored, err)
	}
	if _, _, err := s.Shops.UpdateShop(ctx, newID(), func(*domain.Shop) error { return nil }); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("update of an unknown shop: %v, want domain.ErrNotFound", err)
	}
}

func shopsTypes(t *testing.T, s Store) {
	types, err := s.Shops.ShopTypes(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range s.Types {
		if !slices.ContainsFunc(types, func(x domain.ShopType) bool { return x.ID == id }) {
			t.Fatalf("shop types %+v lack %d", types, id)
		}
	}
	if !slices.IsSortedFunc(types, func(a, b domain.ShopType) int {
		return cmp.Or(cmp.Compare(a.Sort, b.Sort), cmp.Compare(a.ID, b.ID))
	}) {
		t.Fatalf("shop types %+v, want them by sort, then id", types)
	}
}
