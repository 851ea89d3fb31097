package likes

import (
	"context"
	"errors"
	"fmt"

	"github.com/dealspot/dealspot/internal/domain"
)

// LegacyImport copies into the relational store the likes an earlier version kept in
// Redis only.
type LegacyImport struct {
	likes Likes
	store LikeStore
}

// ImportLegacyLikes copies into the relational store the likes that only Redis holds:
// those written before the store kept them. It returns how many it copied (so far, on
// an error). Once it has copied everything, it returns at once.
func (l *LegacyImport) ImportLegacyLikes(ctx context.Context) (likes int, err error) {
	err = l.likes.Legacy(ctx, func(blogID int64, ls []Like) error {
		n, err := l.store.Import(ctx, blogID, ls)
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
	return likes, err
}
