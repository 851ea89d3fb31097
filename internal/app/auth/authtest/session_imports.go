package authtest

import (
	"context"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/auth"
)

// SessionImporter is a durable session store that also takes families copied from an
// earlier version.
type SessionImporter interface {
	auth.SessionRecords
	auth.SessionImports
}

// SessionImportsContract is what every auth.SessionImports must do, as its doc comment
// says, seen through the SessionRecords of the same store: an imported family is live
// with its current token, its spent tokens stay spent, and a family stored already is
// left alone. newStore returns a store; stores of one test may share their database.
func SessionImportsContract(t *testing.T, newStore func(t *testing.T) SessionImporter) {
	t.Helper()
	t.Run("an imported family is live with its tokens; a second import leaves it alone", func(t *testing.T) {
		t.Parallel()
		s := newStore(t)
		ctx := context.Background()
		now := time.Now().Truncate(time.Second)
		user := newID()
		f := auth.LegacyFamily{UserID: user, FamilyID: newFamily(), TokenHash: "current", Spent: []string{"first", "second"},
			ExpiresAt: now.Add(time.Hour)}
		if ok, err := s.ImportFamily(ctx, f); err != nil || !ok {
			t.Fatalf("import: %v, %v; want stored", ok, err)
		}
		if live, exp, err := s.Family(ctx, user, f.FamilyID, now); err != nil || !live || !exp.Equal(f.ExpiresAt) {
			t.Fatalf("imported family: live %v until %v, %v; want live until %v", live, exp, err, f.ExpiresAt)
		}
		again := f
		again.TokenHash, again.ExpiresAt = "other", now.Add(2*time.Hour)
		if ok, err := s.ImportFamily(ctx, again); err != nil || ok {
			t.Fatalf("second import: %v, %v; want left alone", ok, err)
		}
		if r, err := s.RotateFamily(ctx, user, f.FamilyID, "current", "next", now, now.Add(time.Hour)); err != nil || r != auth.RefreshRotated {
			t.Fatalf("rotate the imported current token: %v, %v; want rotated", r, err)
		}
		if r, err := s.RotateFamily(ctx, user, f.FamilyID, "second", "x", now, now.Add(time.Hour)); err != nil || r != auth.RefreshReused {
			t.Fatalf("rotate a spent token imported: %v, %v; want reused", r, err)
		}
		if live, _, err := s.Family(ctx, user, f.FamilyID, now); err != nil || live {
			t.Fatalf("family after reuse: live %v, %v; want revoked", live, err)
		}
	})
}

// ImportFamily implements auth.SessionImports.
func (m *MemRecords) ImportFamily(_ context.Context, f auth.LegacyFamily) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.down {
		return false, ErrDown
	}
	if _, ok := m.families[f.FamilyID]; ok {
		return false, nil
	}
	spent := make(map[string]bool, len(f.Spent))
	for _, h := range f.Spent {
		spent[h] = true
	}
	m.families[f.FamilyID] = &memFamily{user: f.UserID, current: f.TokenHash, spent: spent, expiresAt: f.ExpiresAt}
	return true, nil
}

var _ SessionImporter = (*MemRecords)(nil)
