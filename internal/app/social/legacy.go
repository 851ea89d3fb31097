package social

import (
	"context"

	"github.com/dealspot/dealspot/internal/app/social/likes"
	"github.com/dealspot/dealspot/internal/app/social/signins"
)

// LegacyImport copies into the relational store the facts an earlier version kept in
// Redis only.
type LegacyImport struct {
	likes   *likes.LegacyImport
	signIns *signins.LegacyImport
}

// ImportLegacyFacts copies into the relational store the likes and sign-ins that only
// Redis holds: those written before the store kept them, by an earlier version. It
// returns how many likes and months it copied. Run it at start; once it has copied
// everything, it returns at once.
func (l *LegacyImport) ImportLegacyFacts(ctx context.Context) (likes, months int, err error) {
	if likes, err = l.likes.ImportLegacyLikes(ctx); err != nil {
		return likes, 0, err
	}
	months, err = l.signIns.ImportLegacySignIns(ctx)
	return likes, months, err
}
