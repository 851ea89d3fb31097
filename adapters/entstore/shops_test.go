package entstore_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/app/search"
	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/domain"
)

func testShopTypes(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	shops := s.Shops()
	for _, st := range []domain.ShopType{
		{Name: "c", Sort: 2}, {Name: "a", Sort: 1}, {Name: "d", Sort: 2}, {Name: "b", Sort: 1},
	} {
		if _, err := shops.CreateShopType(ctx, st); err != nil {
			t.Fatal(err)
		}
	}
	types, err := shops.ShopTypes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, st := range types {
		names = append(names, st.Name)
	}
	if got, want := strings.Join(names, ","), "a,b,c,d"; got != want {
		t.Fatalf("order = %s, want %s", got, want)
	}
}

func testShopCreateRead(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	shops := s.Shops()
	typ := mustShopType(t, s, "美食")
	in := domain.Shop{
		Name: "103茶餐厅", TypeID: typ.ID, Images: "/a.jpg,/b.jpg", Area: "大关",
		Address: "金华路锦昌文华苑29号", Longitude: 120.149192, Latitude: 30.316078,
		AvgPrice: 8000, Sold: 4215, Comments: 3035, Score: 37, OpenHours: "10:00-22:00",
	}
	created, err := shops.CreateShop(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if created.ID <= 0 || created.CreatedAt.IsZero() || created.UpdatedAt.IsZero() {
		t.Fatalf("created = %+v, want id and times", created)
	}
	got, err := shops.Shop(ctx, created.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := in
	want.ID, want.CreatedAt, want.UpdatedAt = created.ID, got.CreatedAt, got.UpdatedAt
	if got != want {
		t.Fatalf("read back\n got %+v\nwant %+v", got, want)
	}
	if _, err := shops.Shop(ctx, created.ID+1000); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("missing shop: err = %v, want NOT_FOUND", err)
	}
	in.TypeID = typ.ID + 1000
	if _, err := shops.CreateShop(ctx, in); !errors.Is(err, domain.ErrBadInput) {
		t.Fatalf("unknown type: err = %v, want BAD_USER_INPUT", err)
	}
}

func testShopPaging(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	shops := s.Shops()
	food, ktv := mustShopType(t, s, "美食"), mustShopType(t, s, "KTV")
	names := []struct {
		name string
		typ  int64
	}{
		{"Blue Cafe", food.ID}, {"海底捞火锅(水晶城店)", food.ID}, {"INLOVE KTV", ktv.ID},
		{"blue lagoon bar", ktv.ID}, {"外婆家(湖滨店)", food.ID}, {"100% Noodles", food.ID},
		{"海底捞火锅(万达店)", food.ID},
	}
	var ids []int64
	for _, n := range names {
		sh, err := shops.CreateShop(ctx, domain.Shop{Name: n.name, TypeID: n.typ, Longitude: 120.15, Latitude: 30.3})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, sh.ID)
	}

	tests := []struct {
		name   string
		filter domain.ShopFilter
		want   []int64
	}{
		{"all", domain.ShopFilter{}, ids},
		{"by type", domain.ShopFilter{TypeID: food.ID}, []int64{ids[0], ids[1], ids[4], ids[5], ids[6]}},
		{"unknown type", domain.ShopFilter{TypeID: ktv.ID + 1000}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, size := range []int{1, 2, 3, 10} {
				got := pageThrough(t, shops, tc.filter, size)
				if fmt.Sprint(got) != fmt.Sprint(tc.want) {
					t.Fatalf("page size %d: ids = %v, want %v", size, got, tc.want)
				}
			}
		})
	}

	// Names are searched, not filtered: shops(name:) lists the shops the search finds by
	// name, best first (search.Queries.ShopsByName over this store's index), so the
	// shops each name finds are compared as sets — their order is the rank's.
	byName := []struct {
		name, query string
		typeID      int64
		want        []int64
	}{
		{"by name, any case", "BLUE", 0, []int64{ids[0], ids[3]}},
		{"by name and type", "blue", ktv.ID, []int64{ids[3]}},
		{"by chinese name", "海底捞", 0, []int64{ids[1], ids[6]}},
		{"percent sign is literal", "100%", 0, []int64{ids[5]}},
		{"no match", "nothing like it", 0, nil},
	}
	searches, err := search.NewQueries(entstore.NewSearch(s), noNoteViews{}, search.Limits{Pages: domain.PageLimits{Default: 10, Max: 10}, MaxQueryRunes: 64})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range byName {
		t.Run(tc.name, func(t *testing.T) {
			page, err := searches.ShopsByName(ctx, tc.query, tc.typeID, 10, nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []int64
			for _, r := range page.Results {
				got = append(got, r.Shop.ID)
			}
			slices.Sort(got)
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Fatalf("shops named %q: ids = %v, want %v", tc.query, got, tc.want)
			}
		})
	}

	t.Run("a page holds First+1 rows when more follow", func(t *testing.T) {
		got, err := shops.Shops(ctx, domain.ShopFilter{}, domain.Page{First: 3, After: ids[1]})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 4 || got[0].ID != ids[2] || got[3].ID != ids[5] {
			t.Fatalf("got %d rows starting %v, want 4 rows %v…%v", len(got), got, ids[2], ids[5])
		}
		got, err = shops.Shops(ctx, domain.ShopFilter{}, domain.Page{First: 3, After: ids[4]})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 {
			t.Fatalf("last page: got %d rows, want 2", len(got))
		}
	})
}

// pageThrough collects the ids of every shop matching filter, size at a time, checking
// the First+1 contract on the way.
func pageThrough(t *testing.T, shops *entstore.Shops, filter domain.ShopFilter, size int) []int64 {
	t.Helper()
	var ids []int64
	after := int64(0)
	for range 100 {
		page, err := shops.Shops(t.Context(), filter, domain.Page{First: size, After: after})
		if err != nil {
			t.Fatal(err)
		}
		if len(page) > size+1 {
			t.Fatalf("page of %d has %d rows", size, len(page))
		}
		more := len(page) > size
		if more {
			page = page[:size]
		}
		for _, sh := range page {
			if sh.ID <= after {
				t.Fatalf("id %d not after %d", sh.ID, after)
			}
			after = sh.ID
			ids = append(ids, sh.ID)
		}
		if !more {
			return ids
		}
	}
	t.Fatal("paging does not end")
	return nil
}

func mustShopType(t *testing.T, s *entstore.Store, name string) domain.ShopType {
	t.Helper()
	typ, err := s.Shops().CreateShopType(t.Context(), domain.ShopType{Name: name, Icon: "/types/x.png", Sort: 1})
	if err != nil {
		t.Fatal(err)
	}
	return typ
}

// noNoteViews shows notes as nobody in particular sees them (no note is searched here).
type noNoteViews struct{}

func (noNoteViews) Of(_ context.Context, _ int64, blogs []domain.Blog) ([]notes.BlogView, error) {
	out := make([]notes.BlogView, len(blogs))
	for i, b := range blogs {
		out[i] = notes.BlogView{Blog: b}
	}
	return out, nil
}
