package socialtest

import (
	"context"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/contracttest"
	"github.com/dealspot/dealspot/internal/app/social/signins"
)

// LegacySignIns is a sign-in cache and a way to leave a month in it as a version before
// the store left it (a bitmap that never expires).
type LegacySignIns struct {
	signins.SignIns
	Leave func(t *testing.T, userID int64, month time.Time, mask uint32)
}

// SignInLegacyContract is what signins.SignIns.Legacy must do, as its doc comment says:
// it hands over every month an earlier version left, and no cached month; a month handed
// over is cached like any other; once all were handed over, later calls find none, even
// of months left since. newCache returns a cache on a server of its own (the handing
// over is once per server).
func SignInLegacyContract(t *testing.T, newCache func(t *testing.T) LegacySignIns) {
	t.Helper()
	contracttest.RunCases(t, newCache, contracttest.Case[LegacySignIns]{Name: "legacy months are handed over once", Run: signInLegacyOnce})
}

func signInLegacyOnce(t *testing.T, s LegacySignIns) {
	ctx := context.Background()
	type month struct {
		user  int64
		month string
		mask  uint32
	}
	left, cached, later := contracttest.NewID(), contracttest.NewID(), contracttest.NewID()
	jan := time.Date(2030, time.January, 1, 0, 0, 0, 0, time.UTC)
	// A month an earlier version wrote: days 1 and 3.
	s.Leave(t, left, jan, 0b101)
	// A month this version caches.
	if err := s.Merge(ctx, cached, time.Date(2030, time.February, 1, 0, 0, 0, 0, time.UTC), 1); err != nil {
		t.Fatal(err)
	}
	var got []month
	collect := func(u int64, m time.Time, mask uint32) error {
		got = append(got, month{u, m.Format("2006-01"), mask})
		return nil
	}
	if err := s.Legacy(ctx, collect); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != (month{left, "2030-01", 0b101}) {
		t.Fatalf("legacy months = %+v, want user %d's 2030-01 with days 1 and 3", got, left)
	}
	if mask, ok, err := s.Month(ctx, left, jan); err != nil || !ok || mask != 0b101 {
		t.Fatalf("a month handed over = %032b, cached %v, %v; want cached with days 1 and 3", mask, ok, err)
	}
	got = nil
	s.Leave(t, later, jan, 1)
	if err := s.Legacy(ctx, collect); err != nil || len(got) != 0 {
		t.Fatalf("a second call found %v, %v; want nothing", got, err)
	}
}
