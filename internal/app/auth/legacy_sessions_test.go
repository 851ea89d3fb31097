package auth_test

import (
	"context"
	"errors"
	"testing"

	"github.com/dealspot/dealspot/internal/app/auth"
)

type fakeLegacy struct {
	families []auth.LegacyFamily
	err      error
}

func (f fakeLegacy) Legacy(_ context.Context, fn func(auth.LegacyFamily) error, skip func(string, error)) error {
	for _, lf := range f.families {
		if err := fn(lf); err != nil {
			skip(lf.FamilyID, err)
		}
	}
	return f.err
}

type fakeImports struct{ stored map[string]bool }

func (f fakeImports) ImportFamily(_ context.Context, lf auth.LegacyFamily) (bool, error) {
	if lf.FamilyID == "broken" {
		return false, errDown
	}
	if f.stored[lf.FamilyID] {
		return false, nil
	}
	f.stored[lf.FamilyID] = true
	return true, nil
}

// Only families newly stored are counted; one that fails to store is skipped and the
// others are still copied; a failed scan is returned.
func TestImportLegacySessions(t *testing.T) {
	ctx := context.Background()
	to := fakeImports{stored: map[string]bool{"there": true}}
	from := fakeLegacy{families: []auth.LegacyFamily{{FamilyID: "a"}, {FamilyID: "broken"}, {FamilyID: "there"}, {FamilyID: "b"}}}
	var skipped []string
	n, err := auth.ImportLegacySessions(ctx, from, to, func(key string, err error) {
		if !errors.Is(err, errDown) {
			t.Errorf("skip %s: %v, want the store's error", key, err)
		}
		skipped = append(skipped, key)
	})
	if err != nil || n != 2 || len(skipped) != 1 || skipped[0] != "broken" || !to.stored["a"] || !to.stored["b"] {
		t.Fatalf("import: %d, %v, skipped %v, stored %v", n, err, skipped, to.stored)
	}
	from = fakeLegacy{err: errors.New("scan failed")}
	if _, err := auth.ImportLegacySessions(ctx, from, to, func(string, error) {}); err == nil {
		t.Fatal("a failed scan was not returned")
	}
}
