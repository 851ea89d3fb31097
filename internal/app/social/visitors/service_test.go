package visitors_test

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/contracttest"
	"github.com/dealspot/dealspot/internal/app/social/socialtest"
	"github.com/dealspot/dealspot/internal/app/social/visitors"
	"github.com/dealspot/dealspot/internal/domain"
)

// The visitor use cases on the in-memory counts: views are counted once per visitor,
// site-wide and per shop, once flushed; ranges are checked.
func TestVisitorsOnTheFakes(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	clock := contracttest.NewClock() // 2030-01-02 03:04:05 UTC
	s := visitors.New(visitors.Config{Location: time.UTC, MaxDays: 31, Flush: time.Hour},
		visitors.Deps{Visitors: socialtest.NewMemVisitors(), Now: clock.Now, Log: slog.New(slog.DiscardHandler)})
	t.Cleanup(s.Visits.Close)
	s.Visits.CountView(ctx, 1, "10.0.0.1", 5)
	s.Visits.CountView(ctx, 1, "10.0.0.2", 5)
	s.Visits.CountView(ctx, 0, "10.0.0.1", 0)
	s.Visits.CountView(ctx, 0, "", 5) // nobody known: not counted
	clock.Advance(24 * time.Hour)
	s.Visits.CountView(ctx, 2, "", 6)
	if err := s.Visits.FlushVisits(ctx); err != nil {
		t.Fatal(err)
	}
	admin := domain.Actor{UserID: 1, Role: domain.RoleAdmin}
	day := func(d int) time.Time { return time.Date(2030, time.January, d, 12, 0, 0, 0, time.UTC) }
	for _, tc := range []struct {
		name     string
		from, to time.Time
		shop     int64
		want     int64
	}{
		{"site-wide, first day", day(2), day(2), 0, 2},
		{"site-wide, both days", day(2), day(3), 0, 3},
		{"one shop", day(1), day(3), 5, 1},
		{"another shop", day(1), day(3), 6, 1},
		{"before any visit", day(1), day(1), 0, 0},
	} {
		if got, err := s.Queries.UniqueVisitors(ctx, admin, tc.from, tc.to, tc.shop); err != nil || got != tc.want {
			t.Errorf("%s: %d, %v; want %d", tc.name, got, err, tc.want)
		}
	}
	for name, r := range map[string][2]time.Time{"reversed": {day(3), day(2)}, "too long": {day(1), day(1).AddDate(0, 0, 31)}} {
		if _, err := s.Queries.UniqueVisitors(ctx, admin, r[0], r[1], 0); !errors.Is(err, domain.ErrBadInput) {
			t.Errorf("%s range: %v, want BAD_USER_INPUT", name, err)
		}
	}
}

// owners is a visitors.ShopOwners: shop 5 is run by user 7, shop 6 by nobody.
type owners map[int64]int64

func (o owners) ShopOwner(_ context.Context, shopID int64) (int64, error) {
	owner, ok := o[shopID]
	if !ok {
		return 0, domain.ErrNotFound
	}
	return owner, nil
}

// A shop's visitors are its merchant's and the ADMINs' to read, the site's the ADMINs'.
func TestWhoReadsVisitors(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := visitors.New(visitors.Config{Location: time.UTC, MaxDays: 31, Flush: time.Hour},
		visitors.Deps{Visitors: socialtest.NewMemVisitors(), Owners: owners{5: 7, 6: 0}, Now: time.Now, Log: slog.New(slog.DiscardHandler)})
	t.Cleanup(s.Visits.Close)
	day := time.Now()
	merchant := domain.Actor{UserID: 7, Role: domain.RoleMerchant}
	for _, tc := range []struct {
		name string
		a    domain.Actor
		shop int64
		want domain.Code // "" for allowed
	}{
		{"the merchant, their shop", merchant, 5, ""},
		{"the merchant, a shop without an owner", merchant, 6, domain.CodeForbidden},
		{"the merchant, an unknown shop", merchant, 9, domain.CodeNotFound},
		{"the merchant, the site", merchant, 0, domain.CodeForbidden},
		{"another merchant", domain.Actor{UserID: 8, Role: domain.RoleMerchant}, 5, domain.CodeForbidden},
		{"a USER who owns the shop's id", domain.Actor{UserID: 7, Role: domain.RoleUser}, 5, domain.CodeForbidden},
		{"anonymous", domain.Actor{}, 5, domain.CodeUnauthenticated},
		{"an ADMIN, the site", domain.Actor{UserID: 1, Role: domain.RoleAdmin}, 0, ""},
		{"an ADMIN, any shop", domain.Actor{UserID: 1, Role: domain.RoleAdmin}, 6, ""},
	} {
		_, err := s.Queries.UniqueVisitors(ctx, tc.a, day, day, tc.shop)
		if got := domain.ErrorCode(err); (tc.want == "" && err != nil) || (tc.want != "" && got != tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	none := visitors.New(visitors.Config{Location: time.UTC, MaxDays: 31, Flush: time.Hour},
		visitors.Deps{Visitors: socialtest.NewMemVisitors(), Now: time.Now, Log: slog.New(slog.DiscardHandler)})
	t.Cleanup(none.Visits.Close)
	if _, err := none.Queries.UniqueVisitors(ctx, merchant, day, day, 5); domain.ErrorCode(err) != domain.CodeForbidden {
		t.Errorf("without shop owners a merchant reads: %v", err)
	}
}
