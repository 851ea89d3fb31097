package signins

import (
	"context"
	"fmt"
	"time"
)

// LegacyImport copies into the relational store the sign-ins an earlier version kept in
// Redis only.
type LegacyImport struct {
	cache SignIns
	store SignInStore
}

// ImportLegacySignIns copies into the relational store the sign-ins that only Redis
// holds: those written before the store kept them. It returns how many months it copied
// (so far, on an error). Once it has copied everything, it returns at once.
func (l *LegacyImport) ImportLegacySignIns(ctx context.Context) (months int, err error) {
	err = l.cache.Legacy(ctx, func(userID int64, month time.Time, mask uint32) error {
		if mask == 0 {
			return nil
		}
		if err := l.store.Merge(ctx, userID, month, mask); err != nil {
			return fmt.Errorf("import sign-ins of user %d: %w", userID, err)
		}
		months++
		return nil
	})
	return months, err
}
