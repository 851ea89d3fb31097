package authtest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/app/contracttest"
)

// ImportStore is a store of session records that imports families too.
type ImportStore interface {
	auth.SessionImports
	auth.SessionRecords
}

// SessionImportsContract is what every auth.SessionImports must do, as its doc comment
// says, read back through the session records it imports into: an imported family is
// live until its expiry, its spent tokens stay spent, and a family stored already is
// left alone. newStore returns a store; stores of one test may share their database.
func SessionImportsContract(t *testing.T, newStore func(t *testing.T) ImportStore) {
	t.Helper()
	contracttest.RunCases(t, newStore,
		contracttest.Case[ImportStore]{Name: "a family copied from an earlier version", Run: importsFamily},
	)
}

func importsFamily(t *testing.T, s ImportStore) {
	ctx := context.Background()
	t0 := time.Now().Truncate(time.Second)
	const sessionTTL = 30 * 24 * time.Hour
	user, old := newID(), newFamily()
	f := auth.LegacyFamily{UserID: user, FamilyID: old, TokenHash: "t2", Spent: []string{"t0", "t1"}, ExpiresAt: t0.Add(time.Hour)}
	if ok, err := s.ImportFamily(ctx, f); err != nil || !ok {
		t.Fatalf("import: %v, %v; want stored", ok, err)
	}
	if live, exp, err := s.Family(ctx, user, old, t0); err != nil || !live || !exp.Equal(t0.Add(time.Hour)) {
		t.Fatalf("imported family: live %v until %v, %v", live, exp, err)
	}
	// Imported again, after a rotation: left alone.
	if rot, err := s.RotateFamily(ctx, user, old, "t2", "t3", t0, t0.Add(sessionTTL)); err != nil || rot != auth.RefreshRotated {
		t.Fatalf("rotate the imported current token: %v, %v", rot, err)
	}
	if ok, err := s.ImportFamily(ctx, f); err != nil || ok {
		t.Fatalf("second import: %v, %v; want left alone", ok, err)
	}
	if rot, err := s.RotateFamily(ctx, user, old, "t3", "t4", t0, t0.Add(sessionTTL)); err != nil || rot != auth.RefreshRotated {
		t.Fatalf("the token rotated after the import no longer current: %v, %v", rot, err)
	}
	// A spent token copied from the earlier version ends the family.
	if rot, err := s.RotateFamily(ctx, user, old, "t0", "t9", t0, t0.Add(sessionTTL)); err != nil || rot != auth.RefreshReused {
		t.Fatalf("imported spent token: %v, %v; want reused", rot, err)
	}
	if live, _, err := s.Family(ctx, user, old, t0); err != nil || live {
		t.Fatalf("family after reuse: live %v, %v", live, err)
	}
	// Many spent tokens go in batches.
	manyUser := newID()
	many := auth.LegacyFamily{UserID: manyUser, FamilyID: newFamily(), TokenHash: "cur", ExpiresAt: t0.Add(time.Hour)}
	for i := range 2500 {
		many.Spent = append(many.Spent, fmt.Sprintf("s%d", i))
	}
	if ok, err := s.ImportFamily(ctx, many); err != nil || !ok {
		t.Fatalf("import with many spent tokens: %v, %v", ok, err)
	}
	if rot, err := s.RotateFamily(ctx, manyUser, many.FamilyID, "s2499", "x", t0, t0.Add(sessionTTL)); err != nil || rot != auth.RefreshReused {
		t.Fatalf("last spent token of many: %v, %v; want reused", rot, err)
	}
	// A family created in this version is stored already: an import leaves it alone.
	created := newFamily()
	if err := s.CreateFamily(ctx, user, created, "new", t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.ImportFamily(ctx, auth.LegacyFamily{UserID: user, FamilyID: created, TokenHash: "legacy", ExpiresAt: t0.Add(time.Hour)}); err != nil || ok {
		t.Fatalf("import of a family stored already: %v, %v; want left alone", ok, err)
	}
	if rot, err := s.RotateFamily(ctx, user, created, "new", "next", t0, t0.Add(sessionTTL)); err != nil || rot != auth.RefreshRotated {
		t.Fatalf("the stored family's own token after an import: %v, %v; want rotated", rot, err)
	}
}
