package auth_test

import (
	"context"
	"errors"
	"testing"

	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/app/auth/authtest"
)

// Only families newly stored are counted; one that fails to store is skipped and the
// others are still copied; a failed scan is returned.
func TestImportLegacySessions(t *testing.T) {
	ctx := context.Background()
	to := authtest.FamilyImports{Stored: map[string]bool{"there": true}, Broken: "broken"}
	from := authtest.LegacyFamilies{Families: []auth.LegacyFamily{{FamilyID: "a"}, {FamilyID: "broken"}, {FamilyID: "there"}, {FamilyID: "b"}}}
	var skipped []string
	n, err := auth.ImportLegacySessions(ctx, from, to, func(key string, err error) {
		if !errors.Is(err, authtest.ErrDown) {
			t.Errorf("skip %s: %v, want the store's error", key, err)
		}
		skipped = append(skipped, key)
	})
	if err != nil || n != 2 || len(skipped) != 1 || skipped[0] != "broken" || !to.Stored["a"] || !to.Stored["b"] {
		t.Fatalf("import: %d, %v, skipped %v, stored %v", n, err, skipped, to.Stored)
	}
	from = authtest.LegacyFamilies{Err: errors.New("scan failed")}
	if _, err := auth.ImportLegacySessions(ctx, from, to, func(string, error) {}); err == nil {
		t.Fatal("a failed scan was not returned")
	}
}
