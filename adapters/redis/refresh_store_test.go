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

const refreshTTL = 30 * 24 * time.Hour

func randomUserID() int64 { return rand.Int64N(1<<40) + 1 }

// rotateStep rotates from → to after advancing the clock (revoke instead revokes).
type rotateStep struct {
	after      time.Duration
	from, to   string
	revoke     bool
	want       auth.Rotation
	wantActive bool
}

func TestRefreshStoreRotation(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		steps []rotateStep // the family starts with token "t0"
	}{
		{"current token rotates", []rotateStep{
			{from: "t0", to: "t1", want: auth.RefreshRotated, wantActive: true},
			{from: "t1", to: "t2", want: auth.RefreshRotated, wantActive: true},
		}},
		{"reuse of a rotated token revokes the family", []rotateStep{
			{from: "t0", to: "t1", want: auth.RefreshRotated, wantActive: true},
			{from: "t0", to: "x", want: auth.RefreshReused, wantActive: false},
			{from: "t1", to: "t2", want: auth.RefreshUnknown, wantActive: false},
		}},
		{"a token never issued is refused without revoking", []rotateStep{
			{from: "forged", to: "x", want: auth.RefreshUnknown, wantActive: true},
			{from: "t0", to: "t1", want: auth.RefreshRotated, wantActive: true},
		}},
		{"an expired token is refused", []rotateStep{
			{after: refreshTTL, from: "t0", to: "t1", want: auth.RefreshUnknown, wantActive: true},
		}},
		{"each rotation starts the lifetime anew", []rotateStep{
			{after: refreshTTL - time.Second, from: "t0", to: "t1", want: auth.RefreshRotated, wantActive: true},
			{after: refreshTTL - time.Second, from: "t1", to: "t2", want: auth.RefreshRotated, wantActive: true},
		}},
		{"a revoked family refuses its current token", []rotateStep{
			{revoke: true, wantActive: false},
			{from: "t0", to: "t1", want: auth.RefreshUnknown, wantActive: false},
		}},
	}
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				ctx := context.Background()
				clock := redistest.NewClock()
				store := redis.NewRefreshStore(conn.Client).WithClock(clock.Now)
				user, family := randomUserID(), fmt.Sprint("fam", rand.Uint64())
				if err := store.Create(ctx, user, family, "t0", refreshTTL); err != nil {
					t.Fatal(err)
				}
				for i, s := range tc.steps {
					clock.Advance(s.after)
					if s.revoke {
						if err := store.Revoke(ctx, user, family); err != nil {
							t.Fatalf("step %d: %v", i, err)
						}
					} else {
						got, err := store.Rotate(ctx, user, family, s.from, s.to, refreshTTL)
						if err != nil {
							t.Fatalf("step %d: %v", i, err)
						}
						if got != s.want {
							t.Fatalf("step %d: Rotate(%s → %s) = %v, want %v", i, s.from, s.to, got, s.want)
						}
					}
					active, err := isActive(store, ctx, user, family)
					if err != nil || active != s.wantActive {
						t.Fatalf("step %d: Active = (%v, %v), want %v", i, active, err, s.wantActive)
					}
				}
			})
		}
	})
}

func TestRefreshStoreRevokeAll(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		for _, n := range []int{0, 3, 250} {
			t.Run(fmt.Sprint(n, " families"), func(t *testing.T) {
				t.Parallel()
				ctx := context.Background()
				store := redis.NewRefreshStore(conn.Client)
				user, other := randomUserID(), randomUserID()
				if err := store.Create(ctx, other, "theirs", "h", refreshTTL); err != nil {
					t.Fatal(err)
				}
				for i := range n {
					if err := store.Create(ctx, user, fmt.Sprint("fam", i), fmt.Sprint("h", i), refreshTTL); err != nil {
						t.Fatal(err)
					}
				}
				if err := store.RevokeAll(ctx, user); err != nil {
					t.Fatalf("RevokeAll: %v", err)
				}
				for i := range n {
					if active, _ := isActive(store, ctx, user, fmt.Sprint("fam", i)); active {
						t.Fatalf("family %d still active", i)
					}
					if got, _ := store.Rotate(ctx, user, fmt.Sprint("fam", i), fmt.Sprint("h", i), "x", refreshTTL); got != auth.RefreshUnknown {
						t.Fatalf("family %d still rotates: %v", i, got)
					}
				}
				if active, _ := isActive(store, ctx, other, "theirs"); !active {
					t.Fatal("another user's family was revoked")
				}
				keys, err := conn.Client.Keys(ctx, "session:{u"+fmt.Sprint(user)+"}:*").Result()
				if err != nil || len(keys) != 0 {
					t.Fatalf("keys left after RevokeAll: %v (%v)", keys, err)
				}
			})
		}
	})
}

func TestRefreshStoreConcurrentRotation(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		store := redis.NewRefreshStore(conn.Client)
		user := randomUserID()
		if err := store.Create(ctx, user, "fam", "t0", refreshTTL); err != nil {
			t.Fatal(err)
		}
		rotated := count(t, 20, func(i int) bool {
			got, err := store.Rotate(ctx, user, "fam", "t0", fmt.Sprint("t", i+1), refreshTTL)
			if err != nil {
				t.Error(err)
			}
			return got == auth.RefreshRotated
		})
		if rotated != 1 {
			t.Fatalf("%d rotations of one token succeeded, want 1", rotated)
		}
		// The losers presented a spent token, so the family is gone.
		if active, _ := isActive(store, ctx, user, "fam"); active {
			t.Fatal("family still active after concurrent reuse")
		}
	})
}

func TestRefreshStoreKeysShareTheHashTag(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		store := redis.NewRefreshStore(conn.Client)
		user := randomUserID()
		if err := store.Create(ctx, user, "fam", "t0", refreshTTL); err != nil {
			t.Fatal(err)
		}
		if _, err := store.Rotate(ctx, user, "fam", "t0", "t1", refreshTTL); err != nil {
			t.Fatal(err)
		}
		tag := fmt.Sprintf("{u%d}", user)
		keys, err := conn.Client.Keys(ctx, "*"+tag+"*").Result()
		if err != nil || len(keys) != 3 {
			t.Fatalf("keys %v (%v): want index, family and spent tokens", keys, err)
		}
		for _, k := range keys {
			if !strings.HasPrefix(k, "session:"+tag+":") {
				t.Errorf("key %q lacks the hash tag %s", k, tag)
			}
		}
	})
}

// Concurrent session checks share pipelines and still each get their own answer.
func TestRefreshStoreCoalescedChecks(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		plain := redis.NewRefreshStore(conn.Client)
		coalesced := plain.WithCoalescedChecks(redis.Coalescing{Window: time.Millisecond, Max: 16})
		const families = 200
		user := randomUserID()
		for i := range families {
			family := fmt.Sprintf("f%d", i)
			if err := plain.Create(ctx, user, family, "h"+family, refreshTTL); err != nil {
				t.Fatal(err)
			}
			if i%3 == 0 {
				if err := plain.Revoke(ctx, user, family); err != nil {
					t.Fatal(err)
				}
			}
		}
		errs := make(chan error, families*2)
		var wg sync.WaitGroup
		for i := range families * 2 { // every family checked twice at once; some unknown
			wg.Add(1)
			go func() {
				defer wg.Done()
				n := i % (families + 20)
				family := fmt.Sprintf("f%d", n)
				live, err := isActive(coalesced, ctx, user, family)
				want := n < families && n%3 != 0
				if err != nil || live != want {
					errs <- fmt.Errorf("Active(%s) = %v, %v; want %v", family, live, err, want)
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
		if _, err := isActive(coalesced, gone, user, "f1"); err == nil {
			t.Error("Active with a cancelled context succeeded")
		}
	})
}

// isActive is Check reduced to whether the session is live.
func isActive(s *redis.RefreshStore, ctx context.Context, userID int64, family string) (bool, error) {
	c, err := s.Check(ctx, userID, family)
	return c.Live, err
}

// The session check returns the cached account state; a change written by SetAccount
// wins over a later rebuild (RememberAccount) from an older read of the database.
func TestRefreshStoreAccountState(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		for _, coalesced := range []bool{false, true} {
			store := redis.NewRefreshStore(conn.Client)
			if coalesced {
				store = store.WithCoalescedChecks(redis.Coalescing{Window: time.Millisecond, Max: 8})
			}
			user := time.Now().UnixNano()
			if err := store.Create(ctx, user, "fam", "t0", time.Hour); err != nil {
				t.Fatal(err)
			}
			got, err := store.Check(ctx, user, "fam")
			if err != nil || !got.Live || got.Known {
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
			if err != nil || !got.Live || !got.Known || got.Account != admin {
				t.Fatalf("after SetAccount then RememberAccount: %+v, %v; want %+v", got, err, admin)
			}
			blocked := auth.AccountState{Role: domain.RoleUser, Blocked: true}
			if err := store.SetAccount(ctx, user, blocked, time.Hour); err != nil {
				t.Fatal(err)
			}
			if got, _ = store.Check(ctx, user, "gone"); got.Live || got.Account != blocked {
				t.Fatalf("unknown family of a blocked user: %+v", got)
			}
		}
	})
}
