package redis_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
	"github.com/dealspot/dealspot/internal/app/auth"
)

// Families the earlier version kept only in Redis are handed over once, with their
// current and spent token hashes and expiry; ended ones (deleted by that version), this
// version's cache entries and unreadable keys are not, and an unreadable key does not
// stop the scan.
func TestLegacySessionsAreHandedOverOnce(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		c := conn.Client
		old := redistest.LegacySessions{Client: c}
		cache := redis.NewSessionCache(c)
		user := randomUserID()
		const ttl = time.Hour
		must := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		// live: never rotated; rotated: h1 spent, h2 current; ended: logged out.
		must(old.Create(ctx, user, "live", "h0", ttl))
		must(old.Create(ctx, user, "rotated", "h1", ttl))
		if n, err := old.Rotate(ctx, user, "rotated", "h1", "h2", ttl); err != nil || n != 1 {
			t.Fatalf("old rotate = %d, %v", n, err)
		}
		must(old.Create(ctx, user, "ended", "h3", ttl))
		must(old.Revoke(ctx, user, "ended"))
		// A check made before the import cached "rotated" as ended; this version's own
		// entry of another family is no old family.
		must(cache.PutEnded(ctx, user, ttl, "rotated"))
		must(cache.PutLive(ctx, user, "new", ttl))
		// Unreadable: a family key of another type, a family without expiry.
		must(c.Set(ctx, fmt.Sprintf("session:{u%d}:family:string", user), "x", 0).Err())
		must(c.HSet(ctx, fmt.Sprintf("session:{u%d}:family:noexp", user), "cur", "h9").Err())

		var got []auth.LegacyFamily
		var skipped []string
		collect := func(f auth.LegacyFamily) error { got = append(got, f); return nil }
		skip := func(key string, _ error) { skipped = append(skipped, key) }
		before := time.Now()
		must(cache.Legacy(ctx, collect, skip))
		slices.SortFunc(got, func(a, b auth.LegacyFamily) int { return strings.Compare(a.FamilyID, b.FamilyID) })
		if len(got) != 2 {
			t.Fatalf("handed over %+v, want live and rotated", got)
		}
		for _, f := range got {
			if f.UserID != user || f.ExpiresAt.Before(before.Add(ttl-time.Minute)) || f.ExpiresAt.After(time.Now().Add(ttl)) {
				t.Errorf("family %+v: want user %d, expiry in about %v", f, user, ttl)
			}
		}
		if f := got[0]; f.FamilyID != "live" || f.TokenHash != "h0" || len(f.Spent) != 0 {
			t.Errorf("live family = %+v", f)
		}
		if f := got[1]; f.FamilyID != "rotated" || f.TokenHash != "h2" || !slices.Equal(f.Spent, []string{"h1"}) {
			t.Errorf("rotated family = %+v", f)
		}
		slices.Sort(skipped)
		want := []string{fmt.Sprintf("session:{u%d}:family:noexp", user), fmt.Sprintf("session:{u%d}:family:string", user)}
		if !slices.Equal(skipped, want) {
			t.Errorf("skipped %v, want %v", skipped, want)
		}
		// The ended entry cached before the import is dropped; the database answers next.
		if s, err := cache.Check(ctx, user, "rotated"); err != nil || s.Family != auth.FamilyUncached {
			t.Errorf("cache of a family handed over = %+v, %v; want nothing", s, err)
		}
		if s, err := cache.Check(ctx, user, "new"); err != nil || s.Family != auth.FamilyLive {
			t.Errorf("this version's entry = %+v, %v; want it untouched", s, err)
		}

		got = nil
		must(old.Create(ctx, user, "later", "h5", ttl))
		if err := cache.Legacy(ctx, collect, skip); err != nil || len(got) != 0 {
			t.Fatalf("a second call found %+v, %v; want nothing", got, err)
		}
	})
}

// A family fn fails to store holds the marker back: the next call hands over every
// family again, and the one after that none.
func TestLegacySessionsRetryAfterAFailure(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		old := redistest.LegacySessions{Client: conn.Client}
		cache := redis.NewSessionCache(conn.Client)
		user := randomUserID()
		for _, f := range []string{"a", "b"} {
			if err := old.Create(ctx, user, f, "h-"+f, time.Hour); err != nil {
				t.Fatal(err)
			}
		}
		var calls int
		var skipped []string
		fail := func(f auth.LegacyFamily) error {
			calls++
			if f.FamilyID == "a" {
				return errors.New("database unreachable")
			}
			return nil
		}
		skip := func(key string, _ error) { skipped = append(skipped, key) }
		if err := cache.Legacy(ctx, fail, skip); err != nil {
			t.Fatal(err)
		}
		if calls != 2 || len(skipped) != 1 {
			t.Fatalf("first call: %d families, skipped %v; want 2 and a's key", calls, skipped)
		}
		for _, want := range []int{2, 0} {
			calls = 0
			if err := cache.Legacy(ctx, func(auth.LegacyFamily) error { calls++; return nil }, skip); err != nil {
				t.Fatal(err)
			}
			if calls != want {
				t.Fatalf("families handed over = %d, want %d", calls, want)
			}
		}
	})
}
