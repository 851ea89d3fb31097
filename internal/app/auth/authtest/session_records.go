package authtest

import (
	"context"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/auth"
)

// SessionRecordsContract is what every auth.SessionRecords must do, as its doc comments
// say. newRecords returns an empty store.
func SessionRecordsContract(t *testing.T, newRecords func(t *testing.T) auth.SessionRecords) {
	t.Helper()
	for _, c := range []struct {
		name string
		run  func(t *testing.T, r recordsCase)
	}{
		{"a created family is live until it expires, for its user only", recordsFamily},
		{"rotate replaces the current token; a spent token revokes the family", recordsRotate},
		{"rotate of an unknown, revoked or expired family is unknown", recordsRotateUnknown},
		{"of two rotations with one token one rotates and the other sees it spent", recordsRotateRace},
		{"revoke ends one family; unknown and revoked families are no error", recordsRevoke},
		{"revoke families ends the user's families and names those not expired", recordsRevokeAll},
		{"delete expired deletes up to limit expired families", recordsDeleteExpired},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.run(t, recordsCase{SessionRecords: newRecords(t), ctx: context.Background(),
				now: time.Now().Truncate(time.Second)})
		})
	}
}

type recordsCase struct {
	auth.SessionRecords
	ctx context.Context
	now time.Time
}

func newFamily() string { return "family-" + strconv.FormatInt(newID(), 10) }

// create stores a family of user with token "t0", expiring after ttl, and returns its id.
func (r recordsCase) create(t *testing.T, user int64, ttl time.Duration) string {
	t.Helper()
	f := newFamily()
	if err := r.CreateFamily(r.ctx, user, f, "t0", r.now.Add(ttl)); err != nil {
		t.Fatalf("create family: %v", err)
	}
	return f
}

func (r recordsCase) wantLive(t *testing.T, user int64, family string, at time.Time, want bool) time.Time {
	t.Helper()
	live, exp, err := r.Family(r.ctx, user, family, at)
	if err != nil || live != want {
		t.Fatalf("family %s of %d at %s: live %v, %v; want %v", family, user, at, live, err, want)
	}
	return exp
}

func (r recordsCase) rotate(t *testing.T, user int64, family, oldHash, newHash string, want auth.Rotation) {
	t.Helper()
	got, err := r.RotateFamily(r.ctx, user, family, oldHash, newHash, r.now, r.now.Add(2*time.Hour))
	if err != nil || got != want {
		t.Fatalf("rotate %s of family %s: %v, %v; want %v", oldHash, family, got, err, want)
	}
}

func recordsFamily(t *testing.T, r recordsCase) {
	user := newID()
	f := r.create(t, user, time.Hour)
	if exp := r.wantLive(t, user, f, r.now, true); !exp.Equal(r.now.Add(time.Hour)) {
		t.Fatalf("family expires at %s, want %s", exp, r.now.Add(time.Hour))
	}
	r.wantLive(t, user, f, r.now.Add(time.Hour), false)
	r.wantLive(t, newID(), f, r.now, false)
	r.wantLive(t, user, newFamily(), r.now, false)
}

func recordsRotate(t *testing.T, r recordsCase) {
	user := newID()
	f := r.create(t, user, time.Hour)
	r.rotate(t, user, f, "t0", "t1", auth.RefreshRotated)
	if exp := r.wantLive(t, user, f, r.now, true); !exp.Equal(r.now.Add(2 * time.Hour)) {
		t.Fatalf("rotated family expires at %s, want %s", exp, r.now.Add(2*time.Hour))
	}
	r.rotate(t, user, f, "t1", "t2", auth.RefreshRotated)
	r.rotate(t, user, f, "never-issued", "t3", auth.RefreshUnknown)
	r.wantLive(t, user, f, r.now, true)
	r.rotate(t, user, f, "t0", "t3", auth.RefreshReused)
	r.wantLive(t, user, f, r.now, false)
	r.rotate(t, user, f, "t2", "t3", auth.RefreshUnknown) // revoked: the current token is no use either
}

func recordsRotateUnknown(t *testing.T, r recordsCase) {
	user := newID()
	r.rotate(t, user, newFamily(), "t0", "t1", auth.RefreshUnknown)
	f := r.create(t, user, time.Hour)
	r.rotate(t, newID(), f, "t0", "t1", auth.RefreshUnknown) // another user's family
	if err := r.RevokeFamily(r.ctx, user, f, r.now); err != nil {
		t.Fatal(err)
	}
	r.rotate(t, user, f, "t0", "t1", auth.RefreshUnknown)
	expired := r.create(t, user, -time.Second)
	r.rotate(t, user, expired, "t0", "t1", auth.RefreshUnknown)
}

func recordsRotateRace(t *testing.T, r recordsCase) {
	user := newID()
	f := r.create(t, user, time.Hour)
	var wg sync.WaitGroup
	got := make([]auth.Rotation, 2)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rot, err := r.RotateFamily(r.ctx, user, f, "t0", "t"+strconv.Itoa(i+1), r.now, r.now.Add(time.Hour))
			if err != nil {
				t.Error(err)
			}
			got[i] = rot
		}()
	}
	wg.Wait()
	slices.Sort(got)
	if want := []auth.Rotation{auth.RefreshRotated, auth.RefreshReused}; !slices.Equal(got, want) {
		t.Fatalf("two rotations of one token: %v, want one rotated and one reused", got)
	}
}

func recordsRevoke(t *testing.T, r recordsCase) {
	user := newID()
	f, kept := r.create(t, user, time.Hour), r.create(t, user, time.Hour)
	for range 2 {
		if err := r.RevokeFamily(r.ctx, user, f, r.now); err != nil {
			t.Fatal(err)
		}
	}
	r.wantLive(t, user, f, r.now, false)
	r.wantLive(t, user, kept, r.now, true)
	if err := r.RevokeFamily(r.ctx, user, newFamily(), r.now); err != nil {
		t.Fatalf("revoke of an unknown family: %v", err)
	}
	if err := r.RevokeFamily(r.ctx, newID(), kept, r.now); err != nil {
		t.Fatalf("revoke of another user's family: %v", err)
	}
	r.wantLive(t, user, kept, r.now, true)
}

func recordsRevokeAll(t *testing.T, r recordsCase) {
	user, other := newID(), newID()
	a, b := r.create(t, user, time.Hour), r.create(t, user, time.Hour)
	r.create(t, user, -time.Second) // expired: not named
	theirs := r.create(t, other, time.Hour)
	if err := r.RevokeFamily(r.ctx, user, b, r.now); err != nil {
		t.Fatal(err)
	}
	ids, err := r.RevokeFamilies(r.ctx, user, r.now)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(ids)
	want := []string{a, b}
	slices.Sort(want)
	if !slices.Equal(ids, want) {
		t.Fatalf("revoked families %v, want %v (revoked now and before, not expired)", ids, want)
	}
	r.wantLive(t, user, a, r.now, false)
	r.wantLive(t, other, theirs, r.now, true)
}

func recordsDeleteExpired(t *testing.T, r recordsCase) {
	user := newID()
	live := r.create(t, user, time.Hour)
	expired := []string{r.create(t, user, -time.Hour), r.create(t, user, -time.Minute), r.create(t, user, -time.Second)}
	n, err := r.DeleteExpired(r.ctx, r.now, 2)
	if err != nil || n != 2 {
		t.Fatalf("delete expired, limit 2: %d, %v; want 2", n, err)
	}
	n, err = r.DeleteExpired(r.ctx, r.now, 10)
	if err != nil || n != 1 {
		t.Fatalf("delete expired again: %d, %v; want the 1 left", n, err)
	}
	if n, err := r.DeleteExpired(r.ctx, r.now, 10); err != nil || n != 0 {
		t.Fatalf("delete expired with none left: %d, %v", n, err)
	}
	r.wantLive(t, user, live, r.now, true)
	// A deleted family is gone: its id can start a new family.
	if err := r.CreateFamily(r.ctx, user, expired[0], "t0", r.now.Add(time.Hour)); err != nil {
		t.Fatalf("create a family with a deleted family's id: %v", err)
	}
	r.wantLive(t, user, expired[0], r.now, true)
}
