package favoritestest

import (
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/contracttest"
	"github.com/dealspot/dealspot/internal/app/favorites"
	"github.com/dealspot/dealspot/internal/domain"
)

// StoreContract runs the favourites store's suite; newStore is called once per case.
// Every case uses user and target ids of its own, so the stores may share a database.
func StoreContract(t *testing.T, newStore func(t *testing.T) favorites.Store) {
	t.Helper()
	contracttest.RunCases(t, newStore,
		contracttest.Case[favorites.Store]{Name: "add is idempotent and remove takes back", Run: addRemove},
		contracttest.Case[favorites.Store]{Name: "a user's favourites page newest first", Run: ofUser},
		contracttest.Case[favorites.Store]{Name: "marks and counts by kind", Run: markedCounts},
		contracttest.Case[favorites.Store]{Name: "allow sees what the user holds and can refuse", Run: allow},
		contracttest.Case[favorites.Store]{Name: "concurrent adds of one user stay within the limit", Run: concurrentLimit},
		contracttest.Case[favorites.Store]{Name: "fans page by user id", Run: fans},
	)
}

var at = time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)

func anything(int) error { return nil }

func shopT(id int64) domain.FavoriteTarget {
	return domain.FavoriteTarget{Kind: domain.FavoriteShop, ID: id}
}

func voucherT(id int64) domain.FavoriteTarget {
	return domain.FavoriteTarget{Kind: domain.FavoriteVoucher, ID: id}
}

func add(t *testing.T, s favorites.Store, userID int64, target domain.FavoriteTarget, when time.Time) bool {
	t.Helper()
	ok, err := s.Add(t.Context(), domain.Favorite{UserID: userID, Target: target, CreatedAt: when}, anything)
	if err != nil {
		t.Fatalf("Add(%d, %+v): %v", userID, target, err)
	}
	return ok
}

func addRemove(t *testing.T, s favorites.Store) {
	ctx := t.Context()
	user, shop := contracttest.NewID(), contracttest.NewID()
	if !add(t, s, user, shopT(shop), at) {
		t.Fatal("first Add reported nothing added")
	}
	if add(t, s, user, shopT(shop), at.Add(time.Hour)) {
		t.Fatal("second Add of the same target reported an add")
	}
	favs, err := s.OfUser(ctx, user, 0, 10)
	if err != nil || len(favs) != 1 || favs[0].Target != shopT(shop) || !favs[0].CreatedAt.Equal(at) || favs[0].UserID != user || favs[0].ID <= 0 {
		t.Fatalf("OfUser after two adds = %+v, %v; want the first add alone", favs, err)
	}
	// The same id as a voucher is another target.
	if !add(t, s, user, voucherT(shop), at) {
		t.Fatal("Add of a voucher with a shop's id reported nothing added")
	}
	if ok, err := s.Remove(ctx, user, shopT(shop)); err != nil || !ok {
		t.Fatalf("Remove = %v, %v; want true", ok, err)
	}
	if ok, err := s.Remove(ctx, user, shopT(shop)); err != nil || ok {
		t.Fatalf("second Remove = %v, %v; want false", ok, err)
	}
	favs, err = s.OfUser(ctx, user, 0, 10)
	if err != nil || len(favs) != 1 || favs[0].Target != voucherT(shop) {
		t.Fatalf("OfUser after the remove = %+v, %v; want the voucher alone", favs, err)
	}
	// Given again, it is a new favourite: newest first.
	if !add(t, s, user, shopT(shop), at.Add(time.Minute)) {
		t.Fatal("Add after Remove reported nothing added")
	}
	favs, err = s.OfUser(ctx, user, 0, 10)
	if err != nil || len(favs) != 2 || favs[0].Target != shopT(shop) || favs[0].ID <= favs[1].ID {
		t.Fatalf("OfUser = %+v, %v; want the shop again, first", favs, err)
	}
}

func ofUser(t *testing.T, s favorites.Store) {
	ctx := t.Context()
	user, other := contracttest.NewID(), contracttest.NewID()
	var want []domain.FavoriteTarget
	for i := range 7 {
		tg := shopT(contracttest.NewID())
		if i%2 == 1 {
			tg = voucherT(contracttest.NewID())
		}
		add(t, s, user, tg, at.Add(time.Duration(i)*time.Second))
		add(t, s, other, tg, at)
		want = append([]domain.FavoriteTarget{tg}, want...)
	}
	var got []domain.FavoriteTarget
	before := int64(0)
	for range 10 {
		page, err := s.OfUser(ctx, user, before, 3)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range page {
			if f.UserID != user {
				t.Fatalf("OfUser listed another user's favourite %+v", f)
			}
			got = append(got, f.Target)
		}
		if len(page) < 3 {
			break
		}
		before = page[len(page)-1].ID
	}
	if !slices.Equal(got, want) {
		t.Fatalf("pages of 3 = %v; want %v", got, want)
	}
}

func markedCounts(t *testing.T, s favorites.Store) {
	ctx := t.Context()
	a, b := contracttest.NewID(), contracttest.NewID()
	s1, s2, s3 := contracttest.NewID(), contracttest.NewID(), contracttest.NewID()
	add(t, s, a, shopT(s1), at)
	add(t, s, b, shopT(s1), at)
	add(t, s, a, shopT(s2), at)
	add(t, s, b, voucherT(s3), at) // a voucher with s3's id: not a mark of shop s3
	m, err := s.Marked(ctx, a, domain.FavoriteShop, []int64{s1, s2, s3})
	if err != nil || !m[s1] || !m[s2] || m[s3] {
		t.Fatalf("Marked(a) = %v, %v; want s1 and s2", m, err)
	}
	m, err = s.Marked(ctx, b, domain.FavoriteVoucher, []int64{s1, s3})
	if err != nil || len(m) != 1 || !m[s3] {
		t.Fatalf("Marked(b, vouchers) = %v, %v; want s3 alone", m, err)
	}
	c, err := s.Counts(ctx, domain.FavoriteShop, []int64{s1, s2, s3})
	if err != nil || c[s1] != 2 || c[s2] != 1 || c[s3] != 0 {
		t.Fatalf("Counts = %v, %v; want s1 2, s2 1, s3 0", c, err)
	}
}

var errFull = errors.New("full")

func allow(t *testing.T, s favorites.Store) {
	ctx := t.Context()
	user := contracttest.NewID()
	for i := range 3 {
		var seen int
		ok, err := s.Add(ctx, domain.Favorite{UserID: user, Target: shopT(contracttest.NewID()), CreatedAt: at},
			func(held int) error { seen = held; return nil })
		if err != nil || !ok || seen != i {
			t.Fatalf("add %d: %v, %v, allow saw %d held; want %d", i, ok, err, seen, i)
		}
	}
	ok, err := s.Add(ctx, domain.Favorite{UserID: user, Target: shopT(contracttest.NewID()), CreatedAt: at},
		func(held int) error { return errFull })
	if !errors.Is(err, errFull) || ok {
		t.Fatalf("refused add = %v, %v; want allow's error", ok, err)
	}
	if favs, err := s.OfUser(ctx, user, 0, 10); err != nil || len(favs) != 3 {
		t.Fatalf("after a refused add the user holds %d (%v); want 3", len(favs), err)
	}
	// A target already marked is not asked about.
	favs, _ := s.OfUser(ctx, user, 0, 1)
	ok, err = s.Add(ctx, domain.Favorite{UserID: user, Target: favs[0].Target, CreatedAt: at},
		func(held int) error { return errFull })
	if err != nil || ok {
		t.Fatalf("add of a target marked already, allow refusing = %v, %v; want false, nil", ok, err)
	}
}

func concurrentLimit(t *testing.T, s favorites.Store) {
	ctx := t.Context()
	user := contracttest.NewID()
	const limit, tries = 5, 12
	var wg sync.WaitGroup
	errs := make(chan error, tries)
	for range tries {
		target := shopT(contracttest.NewID())
		wg.Go(func() {
			_, err := s.Add(ctx, domain.Favorite{UserID: user, Target: target, CreatedAt: at}, func(held int) error {
				if held >= limit {
					return errFull
				}
				return nil
			})
			if err != nil && !errors.Is(err, errFull) {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	favs, err := s.OfUser(ctx, user, 0, 100)
	if err != nil || len(favs) != limit {
		t.Fatalf("after %d concurrent adds the user holds %d (%v); want %d", tries, len(favs), err, limit)
	}
}

func fans(t *testing.T, s favorites.Store) {
	ctx := t.Context()
	shop := contracttest.NewID()
	var users []int64
	for range 5 {
		u := contracttest.NewID()
		users = append(users, u)
		add(t, s, u, shopT(shop), at)
		add(t, s, u, voucherT(contracttest.NewID()), at)
	}
	add(t, s, contracttest.NewID(), voucherT(shop), at) // a voucher's fan, not the shop's
	first, err := s.Fans(ctx, shopT(shop), 0, 3)
	if err != nil || !slices.Equal(first, users[:3]) {
		t.Fatalf("Fans first page = %v, %v; want %v", first, err, users[:3])
	}
	rest, err := s.Fans(ctx, shopT(shop), first[2], 3)
	if err != nil || !slices.Equal(rest, users[3:]) {
		t.Fatalf("Fans second page = %v, %v; want %v", rest, err, users[3:])
	}
}
