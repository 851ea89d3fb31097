package authtest

import (
	"context"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/domain"
)

// SessionCacheContract is what every auth.SessionCache must do, as its doc comments say.
// newCache returns a cache; caches of one test may share their server. The cache may
// lose anything at any time, but not within the seconds a case takes.
func SessionCacheContract(t *testing.T, newCache func(t *testing.T) auth.SessionCache) {
	t.Helper()
	for _, c := range []struct {
		name string
		run  func(t *testing.T, c auth.SessionCache)
	}{
		{"nothing cached is uncached and unknown", cacheEmpty},
		{"a live family is cached live until it is cached ended", cacheFamilies},
		{"an end cached first wins over a later put live", cacheEndWins},
		{"set account replaces the account state; remember account does not", cacheAccount},
		{"entries go when their ttl has passed", cacheTTL},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.run(t, newCache(t))
		})
	}
}

func wantCached(t *testing.T, c auth.SessionCache, user int64, family string, want auth.CachedSession) {
	t.Helper()
	got, err := c.Check(context.Background(), user, family)
	if err != nil || got != want {
		t.Fatalf("check family %s of %d: %+v, %v; want %+v", family, user, got, err, want)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func cacheEmpty(t *testing.T, c auth.SessionCache) {
	wantCached(t, c, newID(), newFamily(), auth.CachedSession{Family: auth.FamilyUncached})
}

func cacheFamilies(t *testing.T, c auth.SessionCache) {
	ctx, user := context.Background(), newID()
	a, b, other := newFamily(), newFamily(), newFamily()
	must(t, c.PutLive(ctx, user, a, time.Minute))
	must(t, c.PutLive(ctx, user, b, time.Minute))
	wantCached(t, c, user, a, auth.CachedSession{Family: auth.FamilyLive})
	wantCached(t, c, newID(), a, auth.CachedSession{Family: auth.FamilyUncached}) // per user
	must(t, c.PutEnded(ctx, user, time.Minute, a, b, other))
	for _, f := range []string{a, b, other} {
		wantCached(t, c, user, f, auth.CachedSession{Family: auth.FamilyEnded})
	}
	must(t, c.PutEnded(ctx, user, time.Minute)) // no families: nothing to do
}

func cacheEndWins(t *testing.T, c auth.SessionCache) {
	ctx, user, f := context.Background(), newID(), newFamily()
	must(t, c.PutEnded(ctx, user, time.Minute, f))
	must(t, c.PutLive(ctx, user, f, time.Minute))
	wantCached(t, c, user, f, auth.CachedSession{Family: auth.FamilyEnded})
}

func cacheAccount(t *testing.T, c auth.SessionCache) {
	ctx, user, f := context.Background(), newID(), newFamily()
	admin := auth.AccountState{Role: domain.RoleAdmin}
	blocked := auth.AccountState{Role: domain.RoleUser, Blocked: true}
	must(t, c.RememberAccount(ctx, user, admin, time.Minute))
	wantCached(t, c, user, f, auth.CachedSession{Account: admin, Known: true})
	must(t, c.RememberAccount(ctx, user, blocked, time.Minute))
	wantCached(t, c, user, f, auth.CachedSession{Account: admin, Known: true})
	must(t, c.SetAccount(ctx, user, blocked, time.Minute))
	wantCached(t, c, user, f, auth.CachedSession{Account: blocked, Known: true})
	must(t, c.PutLive(ctx, user, f, time.Minute))
	wantCached(t, c, user, f, auth.CachedSession{Family: auth.FamilyLive, Account: blocked, Known: true})
	wantCached(t, c, newID(), f, auth.CachedSession{Family: auth.FamilyUncached})
}

func cacheTTL(t *testing.T, c auth.SessionCache) {
	ctx, user := context.Background(), newID()
	live, ended := newFamily(), newFamily()
	const ttl = 50 * time.Millisecond
	must(t, c.PutLive(ctx, user, live, ttl))
	must(t, c.PutEnded(ctx, user, ttl, ended))
	must(t, c.SetAccount(ctx, user, auth.AccountState{Role: domain.RoleUser}, ttl))
	time.Sleep(4 * ttl)
	wantCached(t, c, user, live, auth.CachedSession{Family: auth.FamilyUncached})
	wantCached(t, c, user, ended, auth.CachedSession{Family: auth.FamilyUncached})
	// After an end has expired, a put live caches the family again.
	must(t, c.PutLive(ctx, user, ended, time.Minute))
	wantCached(t, c, user, ended, auth.CachedSession{Family: auth.FamilyLive})
}
