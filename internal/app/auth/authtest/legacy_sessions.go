package authtest

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/auth"
)

// LegacyStore is where an earlier version left its sessions, with a way to leave some.
type LegacyStore struct {
	auth.LegacySessions
	// Leave leaves a live family of userID as the earlier version did: started with
	// tokens[0] and rotated through the others (the last is current, the rest spent),
	// its current token valid for ttl.
	Leave func(t *testing.T, userID int64, familyID string, ttl time.Duration, tokens ...string)
}

// LegacySessionsContract is what every auth.LegacySessions must do, as its doc comment
// says: every live family is handed over with its tokens and expiry; a family fn fails
// is passed to skip and holds the marker back, so the next call hands everything over
// again; once a call handed everything over, later calls hand over nothing. newStore
// returns a store of its own (the marker is the store's).
func LegacySessionsContract(t *testing.T, newStore func(t *testing.T) LegacyStore) {
	t.Helper()
	t.Run("families are handed over until one call hands them all over", func(t *testing.T) {
		t.Parallel()
		s := newStore(t)
		ctx := context.Background()
		user := newID()
		a, b := newFamily(), newFamily()
		before := time.Now()
		s.Leave(t, user, a, time.Hour, "a0")
		s.Leave(t, user, b, time.Hour, "b0", "b1", "b2")
		broken := errors.New("database unreachable")
		var got []auth.LegacyFamily
		var skipped int
		skip := func(string, error) { skipped++ }
		err := s.Legacy(ctx, func(f auth.LegacyFamily) error {
			got = append(got, f)
			if f.FamilyID == b {
				return broken
			}
			return nil
		}, skip)
		if err != nil || skipped != 1 {
			t.Fatalf("first call: %v, %d skipped; want b skipped", err, skipped)
		}
		slices.SortFunc(got, func(x, y auth.LegacyFamily) int { return strings.Compare(x.FamilyID, y.FamilyID) })
		want := []auth.LegacyFamily{{UserID: user, FamilyID: a, TokenHash: "a0"}, {UserID: user, FamilyID: b, TokenHash: "b2", Spent: []string{"b0", "b1"}}}
		slices.SortFunc(want, func(x, y auth.LegacyFamily) int { return strings.Compare(x.FamilyID, y.FamilyID) })
		if len(got) != 2 {
			t.Fatalf("handed over %+v, want a and b", got)
		}
		for i, f := range got {
			w := want[i]
			spent := slices.Clone(f.Spent)
			slices.Sort(spent)
			if f.UserID != w.UserID || f.FamilyID != w.FamilyID || f.TokenHash != w.TokenHash || !slices.Equal(spent, w.Spent) ||
				f.ExpiresAt.Before(before.Add(time.Hour-time.Minute)) || f.ExpiresAt.After(time.Now().Add(time.Hour)) {
				t.Fatalf("handed over %+v, want %+v expiring in about an hour", f, w)
			}
		}
		for _, want := range []int{2, 0} {
			calls := 0
			if err := s.Legacy(ctx, func(auth.LegacyFamily) error { calls++; return nil }, skip); err != nil {
				t.Fatal(err)
			}
			if calls != want {
				t.Fatalf("families handed over = %d, want %d", calls, want)
			}
		}
	})
}

// MemLegacySessions is an in-memory auth.LegacySessions: the families an earlier version
// left, and the marker that says they were all handed over.
type MemLegacySessions struct {
	mu       sync.Mutex
	families []auth.LegacyFamily
	done     bool
}

var _ auth.LegacySessions = (*MemLegacySessions)(nil)

// Leave leaves f as the earlier version would have.
func (m *MemLegacySessions) Leave(f auth.LegacyFamily) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.families = append(m.families, f)
}

// Legacy implements auth.LegacySessions.
func (m *MemLegacySessions) Legacy(_ context.Context, fn func(auth.LegacyFamily) error, skip func(key string, err error)) error {
	m.mu.Lock()
	if m.done {
		m.mu.Unlock()
		return nil
	}
	families := slices.Clone(m.families)
	m.mu.Unlock()
	failed := false
	for _, f := range families {
		if err := fn(f); err != nil {
			failed = true
			skip(f.FamilyID, err)
		}
	}
	if !failed {
		m.mu.Lock()
		m.done = true
		m.mu.Unlock()
	}
	return nil
}
