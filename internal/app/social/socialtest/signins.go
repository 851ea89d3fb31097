package socialtest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/contracttest"
	"github.com/dealspot/dealspot/internal/app/social/signins"
)

// signInDay is day d of January 2030 at hour.
func signInDay(d, hour int) time.Time {
	return time.Date(2030, time.January, d, hour, 0, 0, 0, time.UTC)
}

// dayBit is day d's bit in a month's mask.
func dayBit(d int) uint32 { return 1 << (d - 1) }

// SignInStoreContract is what every signins.SignInStore must do, as its doc comments
// say: signing adds a day to the user's month and answers the month, months and users
// apart; merged masks add days; concurrent sign-ins of one user keep every day.
// newStore returns a store (stores of one test may share their database).
func SignInStoreContract(t *testing.T, newStore func(t *testing.T) signins.SignInStore) {
	t.Helper()
	contracttest.RunCases(t, newStore,
		contracttest.Case[signins.SignInStore]{Name: "sign-ins add days to a month", Run: signInsAddDays},
		contracttest.Case[signins.SignInStore]{Name: "merged masks add days to a month", Run: signInsMerge},
		contracttest.Case[signins.SignInStore]{Name: "concurrent sign-ins of one user keep every day", Run: signInsConcurrent},
	)
}

func signInsAddDays(t *testing.T, r signins.SignInStore) {
	ctx := t.Context()
	user, other := contracttest.NewID(), contracttest.NewID()
	if m, err := r.Month(ctx, user, signInDay(1, 23)); err != nil || m != 0 {
		t.Fatalf("a month never signed = %032b, %v", m, err)
	}
	var want uint32
	for _, d := range []int{1, 2, 3, 5, 31, 3} {
		want |= dayBit(d)
		got, err := r.Sign(ctx, user, signInDay(d, 23))
		if err != nil || got != want {
			t.Fatalf("sign day %d = %032b, %v; want %032b", d, got, err, want)
		}
	}
	if m, err := r.Month(ctx, user, signInDay(20, 23)); err != nil || m != want {
		t.Fatalf("month = %032b, %v; want %032b", m, err, want)
	}
	if m, _ := r.Month(ctx, user, time.Date(2030, time.February, 1, 0, 0, 0, 0, time.UTC)); m != 0 {
		t.Fatalf("another month = %032b", m)
	}
	if m, _ := r.Month(ctx, other, signInDay(1, 23)); m != 0 {
		t.Fatalf("another user = %032b", m)
	}
}

func signInsMerge(t *testing.T, r signins.SignInStore) {
	ctx, user := t.Context(), contracttest.NewID()
	if err := r.Merge(ctx, user, signInDay(9, 0), dayBit(1)|dayBit(4)); err != nil {
		t.Fatal(err)
	}
	if err := r.Merge(ctx, user, signInDay(30, 0), dayBit(4)|dayBit(7)); err != nil {
		t.Fatal(err)
	}
	if m, err := r.Month(ctx, user, signInDay(1, 0)); err != nil || m != dayBit(1)|dayBit(4)|dayBit(7) {
		t.Fatalf("after two merges = %032b, %v; want days 1, 4 and 7", m, err)
	}
	if got, err := r.Sign(ctx, user, signInDay(2, 12)); err != nil || got != dayBit(1)|dayBit(2)|dayBit(4)|dayBit(7) {
		t.Fatalf("a sign-in after the merges = %032b, %v", got, err)
	}
}

func signInsConcurrent(t *testing.T, r signins.SignInStore) {
	ctx, user := t.Context(), contracttest.NewID()
	var wg sync.WaitGroup
	for d := 1; d <= 31; d++ {
		wg.Go(func() {
			if _, err := r.Sign(ctx, user, time.Date(2030, time.March, d, 8, 0, 0, 0, time.UTC)); err != nil {
				t.Error(err)
			}
		})
	}
	if wg.Wait(); t.Failed() {
		t.FailNow()
	}
	if m, err := r.Month(ctx, user, time.Date(2030, time.March, 1, 0, 0, 0, 0, time.UTC)); err != nil || m != 1<<31-1 {
		t.Fatalf("month = %032b, %v; want every day", m, err)
	}
}

// SignInCacheContract is what every signins.SignIns must do with cached months, as its
// doc comments say: a month never cached is told apart from a cached one, masks merge in
// any order (a late, smaller mask takes nothing away), a month without sign-ins is cached
// as such, and users are apart. newCache returns a cache (caches of one test may share
// their server).
func SignInCacheContract(t *testing.T, newCache func(t *testing.T) signins.SignIns) {
	t.Helper()
	contracttest.RunCases(t, newCache,
		contracttest.Case[signins.SignIns]{Name: "cached months merge masks", Run: signInCacheMerges},
	)
}

func signInCacheMerges(t *testing.T, s signins.SignIns) {
	ctx := context.Background()
	user, other := contracttest.NewID(), contracttest.NewID()
	day := func(d int) time.Time { return signInDay(d, 12) }
	if _, cached, err := s.Month(ctx, user, day(1)); err != nil || cached {
		t.Fatalf("a month never cached: cached %v, %v", cached, err)
	}
	var want uint32
	for _, d := range []int{1, 2, 3, 5, 8, 9, 16, 17, 24, 31} {
		want |= dayBit(d)
		if err := s.Merge(ctx, user, day(d), want); err != nil {
			t.Fatal(err)
		}
		if got, cached, err := s.Month(ctx, user, day(20)); err != nil || !cached || got != want {
			t.Fatalf("after day %d: mask %032b, cached %v, %v; want %032b", d, got, cached, err, want)
		}
	}
	// Masks merge: an older, smaller mask arriving late takes nothing away.
	if err := s.Merge(ctx, user, day(4), dayBit(1)|dayBit(4)); err != nil {
		t.Fatal(err)
	}
	want |= dayBit(4)
	if got, _, _ := s.Month(ctx, user, day(1)); got != want {
		t.Fatalf("after a late merge: %032b, want %032b", got, want)
	}
	// A month without sign-ins is cached as such.
	feb := time.Date(2030, time.February, 1, 0, 0, 0, 0, time.UTC)
	if err := s.Merge(ctx, user, feb, 0); err != nil {
		t.Fatal(err)
	}
	if got, cached, err := s.Month(ctx, user, feb); err != nil || !cached || got != 0 {
		t.Fatalf("an empty month = %032b, cached %v, %v; want cached, empty", got, cached, err)
	}
	if _, cached, _ := s.Month(ctx, other, day(1)); cached {
		t.Fatal("another user's month is cached")
	}
}
