package entstore_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/testsupport"
)

func TestSessionsSQLite(t *testing.T) {
	t.Parallel()
	runCases(t, openSQLite, sessionCases)
}

func TestSessionsPostgres(t *testing.T) {
	t.Parallel()
	testsupport.Require(t, testsupport.EnvPostgres)
	runCases(t, openPostgres, sessionCases)
}

var sessionCases = []storeCase{
	{"rotation, reuse, expiry and revocation", onSessions(testSessionRotation)},
	{"concurrent rotations of one token: one rotates, the other ends the family", onSessions(testSessionConcurrentRotation)},
	{"revoking all of a user's sessions", onSessions(testSessionRevokeAll)},
	{"expired sessions are deleted", onSessions(testSessionDeleteExpired)},
	{"a minted session is live until its TTL", onSessions(testSessionMinted)},
}

// onSessions runs a case on the store's session repository.
func onSessions(run func(t *testing.T, r *entstore.Sessions)) func(t *testing.T, s *entstore.Store) {
	return func(t *testing.T, s *entstore.Store) { run(t, s.Sessions()) }
}

const sessionTTL = 30 * 24 * time.Hour

var t0 = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

type rotateStep struct {
	after    time.Duration
	from, to string
	revoke   bool
	want     auth.Rotation
	wantLive bool
}

func testSessionRotation(t *testing.T, s *entstore.Sessions) {
	cases := []struct {
		name  string
		steps []rotateStep // the family starts with token "t0" at t0
	}{
		{"current token rotates", []rotateStep{
			{from: "t0", to: "t1", want: auth.RefreshRotated, wantLive: true},
			{from: "t1", to: "t2", want: auth.RefreshRotated, wantLive: true},
		}},
		{"reuse of a rotated token revokes the family", []rotateStep{
			{from: "t0", to: "t1", want: auth.RefreshRotated, wantLive: true},
			{from: "t0", to: "x", want: auth.RefreshReused, wantLive: false},
			{from: "t1", to: "t2", want: auth.RefreshUnknown, wantLive: false},
		}},
		{"a token never issued is refused without revoking", []rotateStep{
			{from: "forged", to: "x", want: auth.RefreshUnknown, wantLive: true},
			{from: "t0", to: "t1", want: auth.RefreshRotated, wantLive: true},
		}},
		{"an expired token is refused", []rotateStep{
			{after: sessionTTL, from: "t0", to: "t1", want: auth.RefreshUnknown, wantLive: false},
		}},
		{"each rotation starts the lifetime anew", []rotateStep{
			{after: sessionTTL - time.Second, from: "t0", to: "t1", want: auth.RefreshRotated, wantLive: true},
			{after: sessionTTL - time.Second, from: "t1", to: "t2", want: auth.RefreshRotated, wantLive: true},
		}},
		{"a revoked family refuses its current and former tokens", []rotateStep{
			{from: "t0", to: "t1", want: auth.RefreshRotated, wantLive: true},
			{revoke: true, wantLive: false},
			{from: "t1", to: "t2", want: auth.RefreshUnknown, wantLive: false},
			{from: "t0", to: "t2", want: auth.RefreshUnknown, wantLive: false},
		}},
	}
	ctx := context.Background()
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			user, family := int64(100+i), fmt.Sprintf("%032x", i)
			now := t0
			if err := s.CreateFamily(ctx, user, family, "t0", now.Add(sessionTTL)); err != nil {
				t.Fatal(err)
			}
			for j, st := range tc.steps {
				now = now.Add(st.after)
				if st.revoke {
					if err := s.RevokeFamily(ctx, user, family, now); err != nil {
						t.Fatalf("step %d: %v", j, err)
					}
				} else {
					got, err := s.RotateFamily(ctx, user, family, st.from, st.to, now, now.Add(sessionTTL))
					if err != nil || got != st.want {
						t.Fatalf("step %d: rotate %s → %s = %v, %v; want %v", j, st.from, st.to, got, err, st.want)
					}
				}
				live, exp, err := s.Family(ctx, user, family, now)
				if err != nil || live != st.wantLive {
					t.Fatalf("step %d: live = %v, %v; want %v", j, live, err, st.wantLive)
				}
				if live && !exp.After(now) {
					t.Fatalf("step %d: live family expires at %v, before now %v", j, exp, now)
				}
			}
			// Another user cannot name the family.
			if live, _, err := s.Family(ctx, user+1000, family, now); err != nil || live {
				t.Fatalf("family seen under another user: %v, %v", live, err)
			}
		})
	}
}

func testSessionConcurrentRotation(t *testing.T, s *entstore.Sessions) {
	ctx := context.Background()
	for round := range 5 {
		user, family := int64(7), fmt.Sprintf("c%031d", round)
		if err := s.CreateFamily(ctx, user, family, "t0", t0.Add(sessionTTL)); err != nil {
			t.Fatal(err)
		}
		const callers = 4
		got := make([]auth.Rotation, callers)
		var wg sync.WaitGroup
		for i := range callers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r, err := s.RotateFamily(ctx, user, family, "t0", fmt.Sprint("n", i), t0, t0.Add(sessionTTL))
				if err != nil {
					t.Errorf("rotate: %v", err)
				}
				got[i] = r
			}()
		}
		wg.Wait()
		var rotated, reused int
		for _, r := range got {
			switch r {
			case auth.RefreshRotated:
				rotated++
			case auth.RefreshReused:
				reused++
			}
		}
		if rotated != 1 || reused < 1 {
			t.Fatalf("round %d: outcomes %v; want one rotation and the family ended by a reuse", round, got)
		}
		if live, _, _ := s.Family(ctx, user, family, t0); live {
			t.Fatalf("round %d: family live after a reuse", round)
		}
	}
}

func testSessionRevokeAll(t *testing.T, s *entstore.Sessions) {
	ctx := context.Background()
	const user = 42
	for i, exp := range []time.Duration{time.Hour, time.Hour, -time.Hour} {
		if err := s.CreateFamily(ctx, user, fmt.Sprintf("r%031d", i), "h", t0.Add(exp)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.CreateFamily(ctx, user+1, "other", "h", t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := s.RevokeFamily(ctx, user, fmt.Sprintf("r%031d", 1), t0); err != nil {
		t.Fatal(err)
	}
	ids, err := s.RevokeFamilies(ctx, user, t0)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(ids)
	want := []string{fmt.Sprintf("r%031d", 0), fmt.Sprintf("r%031d", 1)}
	if !slices.Equal(ids, want) {
		t.Fatalf("revoked %v, want the unexpired families %v", ids, want)
	}
	for _, f := range want {
		if live, _, _ := s.Family(ctx, user, f, t0); live {
			t.Fatalf("%s live after RevokeFamilies", f)
		}
	}
	if live, _, _ := s.Family(ctx, user+1, "other", t0); !live {
		t.Fatal("another user's session was revoked")
	}
}

func testSessionDeleteExpired(t *testing.T, s *entstore.Sessions) {
	ctx := context.Background()
	for i := range 5 {
		f := fmt.Sprintf("e%031d", i)
		if err := s.CreateFamily(ctx, 9, f, "t0", t0.Add(time.Duration(i)*time.Hour)); err != nil {
			t.Fatal(err)
		}
		if _, err := s.RotateFamily(ctx, 9, f, "t0", "t1", t0.Add(-time.Minute), t0.Add(time.Duration(i)*time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	// Expired at t0+2h: the families expiring at t0, +1h and +2h; two per call.
	now := t0.Add(2 * time.Hour)
	if n, err := s.DeleteExpired(ctx, now, 2); err != nil || n != 2 {
		t.Fatalf("first batch: %d, %v; want 2", n, err)
	}
	if n, err := s.DeleteExpired(ctx, now, 2); err != nil || n != 1 {
		t.Fatalf("second batch: %d, %v; want 1", n, err)
	}
	if n, err := s.DeleteExpired(ctx, now, 2); err != nil || n != 0 {
		t.Fatalf("third batch: %d, %v; want 0", n, err)
	}
	for i := 3; i < 5; i++ {
		if live, _, _ := s.Family(ctx, 9, fmt.Sprintf("e%031d", i), now); !live {
			t.Fatalf("unexpired family %d deleted", i)
		}
	}
}

func testSessionMinted(t *testing.T, s *entstore.Sessions) {
	ctx := context.Background()
	if err := s.Create(ctx, 5, "minted", "h", time.Hour); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if live, exp, err := s.Family(ctx, 5, "minted", now); err != nil || !live || exp.After(now.Add(time.Hour)) {
		t.Fatalf("minted session: live %v until %v, %v", live, exp, err)
	}
	if live, _, _ := s.Family(ctx, 5, "minted", now.Add(time.Hour+time.Second)); live {
		t.Fatal("minted session live after its TTL")
	}
}
