package signins_test

import (
	"errors"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/contracttest"
	"github.com/dealspot/dealspot/internal/app/social/signins"
	"github.com/dealspot/dealspot/internal/app/social/socialtest"
)

// The sign-in use cases on the in-memory store and cache: a sign-in is stored and
// cached, a month the cache lacks is loaded from the store, and legacy months are copied
// into the store once.
func TestSignInsOnTheFakes(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	clock := contracttest.NewClock() // 2030-01-02 03:04:05 UTC
	store, cache, credits := socialtest.NewMemSignInStore(), socialtest.NewMemSignIns(), socialtest.NewMemCredits()
	s := signins.New(signins.Deps{Store: store, Cache: cache, Credits: credits, Location: time.UTC, Now: clock.Now, Log: slog.New(slog.DiscardHandler)})
	const user = 7
	for range 2 {
		st, err := s.Commands.SignIn(ctx, user)
		if err != nil || st.Month != "2030-01" || !slices.Equal(st.SignedDays, []int{2}) || st.ConsecutiveDays != 1 || !st.SignedToday {
			t.Fatalf("sign in = %+v, %v; want day 2, a run of 1", st, err)
		}
	}
	if n := credits.Balance(user); n != 1 {
		t.Fatalf("two sign-ins on one day earned %d credits, want 1", n)
	}
	if mask, cached, _ := cache.Month(ctx, user, clock.Now()); !cached || mask != 1<<1 {
		t.Fatalf("cached month = %032b (cached %v), want day 2", mask, cached)
	}
	// A month only the store holds is read through the cache.
	if err := store.Merge(ctx, user, time.Date(2029, time.December, 1, 0, 0, 0, 0, time.UTC), 1<<30|1<<29); err != nil {
		t.Fatal(err)
	}
	st, err := s.Queries.SignInStatus(ctx, user, "2029-12")
	if err != nil || !slices.Equal(st.SignedDays, []int{30, 31}) || st.ConsecutiveDays != 2 {
		t.Fatalf("December = %+v, %v; want days 30 and 31, a run of 2", st, err)
	}
	if mask, cached, _ := cache.Month(ctx, user, time.Date(2029, time.December, 5, 0, 0, 0, 0, time.UTC)); !cached || mask != 1<<30|1<<29 {
		t.Fatalf("December cached = %032b (cached %v), want loaded", mask, cached)
	}
	// With January 1 signed too, January 2 follows December 30 and 31: the run goes on
	// across the months.
	jan1 := time.Date(2030, time.January, 1, 0, 0, 0, 0, time.UTC)
	if err := errors.Join(store.Merge(ctx, user, jan1, 1), cache.Merge(ctx, user, jan1, 1)); err != nil {
		t.Fatal(err)
	}
	if st, err := s.Queries.SignInStatus(ctx, user, ""); err != nil || st.ConsecutiveDays != 4 || !st.SignedToday {
		t.Fatalf("January = %+v, %v; want a run of 4", st, err)
	}
	if _, err := s.Queries.SignInStatus(ctx, user, "January"); err == nil {
		t.Fatal("a malformed month was read")
	}
	// Legacy months are copied into the store, once.
	cache.Leave(user+1, time.Date(2029, time.November, 1, 0, 0, 0, 0, time.UTC), 1|1<<2)
	if n, err := s.Legacy.ImportLegacySignIns(ctx); err != nil || n != 1 {
		t.Fatalf("import = %d, %v; want 1 month", n, err)
	}
	if mask, _ := store.Month(ctx, user+1, time.Date(2029, time.November, 9, 0, 0, 0, 0, time.UTC)); mask != 1|1<<2 {
		t.Fatalf("imported month = %032b, want days 1 and 3", mask)
	}
	if n, err := s.Legacy.ImportLegacySignIns(ctx); err != nil || n != 0 {
		t.Fatalf("a second import = %d, %v; want none", n, err)
	}

	// Every 7th day in a row earns the bonus on top.
	const regular = 9
	for day := 1; day <= 8; day++ {
		if _, err := s.Commands.SignIn(ctx, regular); err != nil {
			t.Fatal(err)
		}
		want := day
		if day >= 7 {
			want += 5
		}
		if n := credits.Balance(regular); n != want {
			t.Fatalf("day %d in a row: %d credits, want %d", day, n, want)
		}
		clock.Advance(24 * time.Hour)
	}
}
