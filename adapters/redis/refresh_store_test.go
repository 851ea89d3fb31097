package redis_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/domain"
)

func randomUserID() int64 { return rand.Int64N(1<<40) + 1 }

// The cache tells live, ended and uncached families apart; an end cached meanwhile wins
// over a rebuild of a live entry, and a live entry expires with its TTL.
func TestSessionCacheFamilies(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		c := redis.NewSessionCache(conn.Client)
		user := randomUserID()
		family := func(f string) auth.CachedFamily {
			t.Helper()
			got, err := c.Check(ctx, user, f)
			if err != nil {
				t.Fatal(err)
			}
			return got.Family
		}
		if got := family("a"); got != auth.FamilyUncached {
			t.Fatalf("nothing cached: %v", got)
		}
		if err := c.PutLive(ctx, user, "a", time.Hour); err != nil {
			t.Fatal(err)
		}
		if got := family("a"); got != auth.FamilyLive {
			t.Fatalf("after PutLive: %v", got)
		}
		if err := c.PutEnded(ctx, user, time.Hour, "a", "b"); err != nil {
			t.Fatal(err)
		}
		if got := family("a"); got != auth.FamilyEnded {
			t.Fatalf("after PutEnded: %v", got)
		}
		if got := family("b"); got != auth.FamilyEnded {
			t.Fatalf("unknown family after PutEnded: %v", got)
		}
		if err := c.PutLive(ctx, user, "a", time.Hour); err != nil {
			t.Fatal(err)
		}
		if got := family("a"); got != auth.FamilyEnded {
			t.Fatalf("PutLive replaced an ended entry: %v", got)
		}
		ttl, err := conn.Client.PTTL(ctx, fmt.Sprintf("session:{u%d}:f:b", user)).Result()
		if err != nil || ttl <= 0 || ttl > time.Hour {
			t.Fatalf("ended entry TTL %v, %v; want within an hour", ttl, err)
		}
	})
}

func TestSessionCacheKeysShareTheHashTag(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		c := redis.NewSessionCache(conn.Client)
		user := randomUserID()
		if err := c.PutLive(ctx, user, "fam", time.Hour); err != nil {
			t.Fatal(err)
		}
		if err := c.PutEnded(ctx, user, time.Hour, "old"); err != nil {
			t.Fatal(err)
		}
		if err := c.SetAccount(ctx, user, auth.AccountState{Role: domain.RoleUser}, time.Hour); err != nil {
			t.Fatal(err)
		}
		tag := fmt.Sprintf("{u%d}", user)
		keys := redistest.Keys(t, conn, "*"+tag+"*")
		if len(keys) != 3 {
			t.Fatalf("keys %v: want two families and the account", keys)
		}
		for _, k := range keys {
			if !strings.HasPrefix(k, "session:"+tag+":") {
				t.Errorf("key %q lacks the hash tag %s", k, tag)
			}
		}
	})
}

// Concurrent session checks share pipelines and still each get their own answer.
func TestSessionCacheCoalescedChecks(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		plain := redis.NewSessionCache(conn.Client)
		coalesced := plain.WithCoalescedChecks(redis.Coalescing{Window: time.Millisecond, Max: 16})
		const families = 200
		user := randomUserID()
		for i := range families {
			family := fmt.Sprintf("f%d", i)
			if err := plain.PutLive(ctx, user, family, time.Hour); err != nil {
				t.Fatal(err)
			}
			if i%3 == 0 {
				if err := plain.PutEnded(ctx, user, time.Hour, family); err != nil {
					t.Fatal(err)
				}
			}
		}
		errs := make(chan error, families*2)
		var wg sync.WaitGroup
		for i := range families * 2 { // every family checked twice at once; some uncached
			wg.Add(1)
			go func() {
				defer wg.Done()
				n := i % (families + 20)
				family := fmt.Sprintf("f%d", n)
				got, err := coalesced.Check(ctx, user, family)
				want := auth.FamilyUncached
				switch {
				case n < families && n%3 == 0:
					want = auth.FamilyEnded
				case n < families:
					want = auth.FamilyLive
				}
				if err != nil || got.Family != want {
					errs <- fmt.Errorf("Check(%s) = %v, %v; want %v", family, got.Family, err, want)
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		// A caller that gives up waiting gets its context's error.
		gone, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := coalesced.Check(gone, user, "f1"); err == nil {
			t.Error("Check with a cancelled context succeeded")
		}
	})
}

// The session check returns the cached account state; a change written by SetAccount
// wins over a later rebuild (RememberAccount) from an older read of the database.
func TestSessionCacheAccountState(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		for _, coalesced := range []bool{false, true} {
			store := redis.NewSessionCache(conn.Client)
			if coalesced {
				store = store.WithCoalescedChecks(redis.Coalescing{Window: time.Millisecond, Max: 8})
			}
			user := randomUserID()
			if err := store.PutLive(ctx, user, "fam", time.Hour); err != nil {
				t.Fatal(err)
			}
			got, err := store.Check(ctx, user, "fam")
			if err != nil || got.Family != auth.FamilyLive || got.Known {
				t.Fatalf("fresh session: %+v, %v; want live with nothing cached", got, err)
			}
			admin := auth.AccountState{Role: domain.RoleAdmin}
			if err := store.SetAccount(ctx, user, admin, time.Hour); err != nil {
				t.Fatal(err)
			}
			stale := auth.AccountState{Role: domain.RoleUser}
			if err := store.RememberAccount(ctx, user, stale, time.Hour); err != nil {
				t.Fatal(err)
			}
			got, err = store.Check(ctx, user, "fam")
			if err != nil || got.Family != auth.FamilyLive || !got.Known || got.Account != admin {
				t.Fatalf("after SetAccount then RememberAccount: %+v, %v; want %+v", got, err, admin)
			}
			blocked := auth.AccountState{Role: domain.RoleUser, Blocked: true}
			if err := store.SetAccount(ctx, user, blocked, time.Hour); err != nil {
				t.Fatal(err)
			}
			if got, _ = store.Check(ctx, user, "gone"); got.Family != auth.FamilyUncached || got.Account != blocked {
				t.Fatalf("uncached family of a blocked user: %+v", got)
			}
		}
	})
}
