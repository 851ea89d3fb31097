package favorites_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/favorites"
	"github.com/dealspot/dealspot/internal/app/favorites/favoritestest"
	"github.com/dealspot/dealspot/internal/domain"
)

// The in-memory store the use cases are tested on meets the store's contract.
func TestMemStoreContract(t *testing.T) {
	t.Parallel()
	favoritestest.StoreContract(t, func(*testing.T) favorites.Store { return favoritestest.NewMemStore() })
}

// targets knows shops 1–20 and vouchers 100–120.
type targets struct{}

func (targets) Exists(_ context.Context, t domain.FavoriteTarget) (bool, error) {
	if t.Kind == domain.FavoriteShop {
		return t.ID >= 1 && t.ID <= 20, nil
	}
	return t.ID >= 100 && t.ID <= 120, nil
}

// countingStore counts the reads of marks.
type countingStore struct {
	*favoritestest.MemStore
	marked int
}

func (s *countingStore) Marked(ctx context.Context, userID int64, kind domain.FavoriteKind, ids []int64) (map[int64]bool, error) {
	s.marked++
	return s.MemStore.Marked(ctx, userID, kind, ids)
}

func newFavorites(t *testing.T, max int) (*favorites.Commands, *favorites.Queries, *countingStore) {
	t.Helper()
	store := &countingStore{MemStore: favoritestest.NewMemStore()}
	clock := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	cmds, qs, err := favorites.New(favorites.Config{MaxPerUser: max, Pages: domain.PageLimits{Default: 2, Max: 5}},
		favorites.Deps{Store: store, Targets: targets{}, Now: func() time.Time { clock = clock.Add(time.Second); return clock }})
	if err != nil {
		t.Fatal(err)
	}
	return cmds, qs, store
}

func shop(id int64) domain.FavoriteTarget {
	return domain.FavoriteTarget{Kind: domain.FavoriteShop, ID: id}
}
func voucher(id int64) domain.FavoriteTarget {
	return domain.FavoriteTarget{Kind: domain.FavoriteVoucher, ID: id}
}

func wantCode(t *testing.T, err error, code domain.Code) {
	t.Helper()
	if !errors.Is(err, &domain.Error{Code: code}) {
		t.Fatalf("error %v; want %s", err, code)
	}
}

func TestFavoriteAndUnfavoriteAreIdempotent(t *testing.T) {
	t.Parallel()
	cmds, qs, _ := newFavorites(t, 0)
	ctx := t.Context()
	for range 2 {
		if err := cmds.Favorite(ctx, 7, shop(3)); err != nil {
			t.Fatal(err)
		}
	}
	page, err := qs.MyFavorites(ctx, 7, 0, 0)
	if err != nil || len(page.Favorites) != 1 || page.Favorites[0].Target != shop(3) {
		t.Fatalf("after favouriting twice: %+v, %v; want one favourite", page, err)
	}
	first := page.Favorites[0].CreatedAt
	if err := cmds.Favorite(ctx, 7, shop(3)); err != nil {
		t.Fatal(err)
	}
	if page, _ := qs.MyFavorites(ctx, 7, 0, 0); !page.Favorites[0].CreatedAt.Equal(first) {
		t.Fatalf("favouriting again moved its time: %v, was %v", page.Favorites[0].CreatedAt, first)
	}
	for range 2 {
		if err := cmds.Unfavorite(ctx, 7, shop(3)); err != nil {
			t.Fatal(err)
		}
	}
	if page, err := qs.MyFavorites(ctx, 7, 0, 0); err != nil || len(page.Favorites) != 0 {
		t.Fatalf("after unfavouriting twice: %+v, %v; want none", page, err)
	}
}

func TestFavoriteRefusals(t *testing.T) {
	t.Parallel()
	cmds, qs, _ := newFavorites(t, 0)
	ctx := t.Context()
	wantCode(t, cmds.Favorite(ctx, 0, shop(3)), domain.CodeUnauthenticated)
	wantCode(t, cmds.Favorite(ctx, 7, shop(21)), domain.CodeNotFound)
	wantCode(t, cmds.Favorite(ctx, 7, voucher(3)), domain.CodeNotFound)
	wantCode(t, cmds.Unfavorite(ctx, 7, voucher(99)), domain.CodeNotFound)
	wantCode(t, cmds.Favorite(ctx, 7, shop(-1)), domain.CodeBadUserInput)
	wantCode(t, cmds.Favorite(ctx, 7, domain.FavoriteTarget{Kind: "USER", ID: 1}), domain.CodeBadUserInput)
	_, err := qs.MyFavorites(ctx, 0, 0, 0)
	wantCode(t, err, domain.CodeUnauthenticated)
	_, err = qs.MyFavorites(ctx, 7, 6, 0)
	wantCode(t, err, domain.CodeBadUserInput)
}

// A user keeps at most MaxPerUser favourites, shops and vouchers together; marking one
// already held is still fine at the limit, and taking one back makes room.
func TestFavoritesPerUserAreLimited(t *testing.T) {
	t.Parallel()
	cmds, _, _ := newFavorites(t, 3)
	ctx := t.Context()
	for _, tg := range []domain.FavoriteTarget{shop(1), voucher(100), shop(2)} {
		if err := cmds.Favorite(ctx, 7, tg); err != nil {
			t.Fatal(err)
		}
	}
	wantCode(t, cmds.Favorite(ctx, 7, shop(4)), domain.CodeBadUserInput)
	wantCode(t, cmds.Favorite(ctx, 7, voucher(101)), domain.CodeBadUserInput)
	if err := cmds.Favorite(ctx, 7, voucher(100)); err != nil {
		t.Fatalf("favouriting one already held at the limit: %v", err)
	}
	if err := cmds.Favorite(ctx, 8, shop(4)); err != nil {
		t.Fatalf("another user at the first one's limit: %v", err)
	}
	if err := cmds.Unfavorite(ctx, 7, shop(1)); err != nil {
		t.Fatal(err)
	}
	if err := cmds.Favorite(ctx, 7, shop(4)); err != nil {
		t.Fatalf("after taking one back: %v", err)
	}
}

func TestMyFavoritesPageNewestFirst(t *testing.T) {
	t.Parallel()
	cmds, qs, _ := newFavorites(t, 0)
	ctx := t.Context()
	order := []domain.FavoriteTarget{shop(1), voucher(100), shop(2), voucher(101), shop(3)}
	for _, tg := range order {
		if err := cmds.Favorite(ctx, 7, tg); err != nil {
			t.Fatal(err)
		}
	}
	if err := cmds.Favorite(ctx, 8, shop(9)); err != nil {
		t.Fatal(err)
	}
	var got []domain.FavoriteTarget
	before, pages := int64(0), 0
	for {
		page, err := qs.MyFavorites(ctx, 7, 0, before) // the default page: 2
		if err != nil {
			t.Fatal(err)
		}
		pages++
		for _, f := range page.Favorites {
			got = append(got, f.Target)
		}
		if !page.HasNextPage {
			break
		}
		before = page.Favorites[len(page.Favorites)-1].ID
	}
	want := slices.Clone(order)
	slices.Reverse(want)
	if !slices.Equal(got, want) || pages != 3 {
		t.Fatalf("pages %d: %v; want 3 pages of %v", pages, got, want)
	}
}

func TestMarksCountsAndFans(t *testing.T) {
	t.Parallel()
	cmds, qs, store := newFavorites(t, 0)
	ctx := t.Context()
	for _, f := range []struct {
		user int64
		tg   domain.FavoriteTarget
	}{{7, shop(1)}, {8, shop(1)}, {9, shop(1)}, {7, shop(2)}, {8, voucher(100)}} {
		if err := cmds.Favorite(ctx, f.user, f.tg); err != nil {
			t.Fatal(err)
		}
	}
	m, err := qs.Marked(ctx, 7, domain.FavoriteShop, []int64{1, 2, 3})
	if err != nil || !m[1] || !m[2] || m[3] {
		t.Fatalf("Marked = %v, %v", m, err)
	}
	reads := store.marked
	if m, err := qs.Marked(ctx, 0, domain.FavoriteShop, []int64{1, 2}); err != nil || len(m) != 0 || store.marked != reads {
		t.Fatalf("an anonymous caller's marks = %v, %v, %d store reads; want none, without reading", m, err, store.marked-reads)
	}
	c, err := qs.ShopCounts(ctx, []int64{1, 2, 3})
	if err != nil || c[1] != 3 || c[2] != 1 || c[3] != 0 {
		t.Fatalf("ShopCounts = %v, %v", c, err)
	}
	fans, err := qs.Fans(ctx, 1, 0, 2)
	if err != nil || !slices.Equal(fans, []int64{7, 8}) {
		t.Fatalf("Fans first page = %v, %v", fans, err)
	}
	if fans, err = qs.Fans(ctx, 1, 8, 2); err != nil || !slices.Equal(fans, []int64{9}) {
		t.Fatalf("Fans second page = %v, %v", fans, err)
	}
}
