package social

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// LegacyImport copies into the relational store the facts an earlier version kept in
// Redis only.
type LegacyImport struct {
	likes       Likes
	likeStore   LikeStore
	signIns     SignIns
	signInStore SignInStore
}

// ImportLegacyFacts copies into the relational store the likes and sign-ins that only
// Redis holds: those written before the store kept them, by an earlier version. It
// returns how many likes and months it copied. Run it at start; once it has copied
// everything, it returns at once.
func (l *LegacyImport) ImportLegacyFacts(ctx context.Context) (likes, months int, err error) {
	err = l.likes.Legacy(ctx, func(blogID int64, ls []Like) error {
		n, err := l.likeStore.Import(ctx, blogID, ls)
		if errors.Is(err, domain.ErrNotFound) {
			return nil // the blog is gone; its like set is dropped at its next load
		}
		if err != nil {
			return fmt.Errorf("import likes of blog %d: %w", blogID, err)
		}
		likes += n
		// The like set has no version: the next read loads the store's likes over it.
		return nil
	})
	if err != nil {
		return likes, months, err
	}
	err = l.signIns.Legacy(ctx, func(userID int64, month time.Time, mask uint32) error {
		if mask == 0 {
			return nil
		}
		if err := l.signInStore.Merge(ctx, userID, month, mask); err != nil {
			return fmt.Errorf("import sign-ins of user %d: %w", userID, err)
		}
		months++
		return nil
	})
	return likes, months, err
}
