package favorites

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/dealspot/dealspot/internal/app/batchread"
	"github.com/dealspot/dealspot/internal/domain"
)

// DefaultMaxPerUser is Config.MaxPerUser's default (FAVORITES_MAX_PER_USER).
const DefaultMaxPerUser = 1000

// Config bounds favourites.
type Config struct {
	// MaxPerUser is how many favourites (shops and vouchers together) one user keeps at
	// most; one more is BAD_USER_INPUT (0: DefaultMaxPerUser).
	MaxPerUser int
	// Pages bounds myFavorites.
	Pages domain.PageLimits
}

// Deps are what the favourites' use cases need.
type Deps struct {
	Store   Store
	Targets Targets
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Commands mark and unmark favourites.
type Commands struct {
	store   Store
	targets Targets
	max     int
	now     func() time.Time
}

// Queries read favourites.
type Queries struct {
	store Store
	pages domain.PageLimits
}

// New builds the favourites' commands and queries; it refuses missing dependencies and
// bad limits.
func New(cfg Config, d Deps) (*Commands, *Queries, error) {
	if d.Store == nil || d.Targets == nil {
		return nil, nil, errors.New("favorites: nil store or targets")
	}
	if err := cfg.Pages.Validate(); err != nil {
		return nil, nil, fmt.Errorf("favorites: %w", err)
	}
	if cfg.MaxPerUser < 0 {
		return nil, nil, errors.New("favorites: MaxPerUser must not be negative")
	}
	if cfg.MaxPerUser == 0 {
		cfg.MaxPerUser = DefaultMaxPerUser
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	return &Commands{store: d.Store, targets: d.Targets, max: cfg.MaxPerUser, now: d.Now},
		&Queries{store: d.Store, pages: cfg.Pages}, nil
}

// checkTarget refuses a malformed target (BAD_USER_INPUT) and one that does not exist
// (NOT_FOUND).
func (c *Commands) checkTarget(ctx context.Context, userID int64, t domain.FavoriteTarget) error {
	switch {
	case userID <= 0:
		return domain.Errorf(domain.CodeUnauthenticated, "log in first")
	case !t.Kind.Valid():
		return domain.Errorf(domain.CodeBadUserInput, "unknown kind of favourite %q", t.Kind)
	case t.ID <= 0:
		return domain.Errorf(domain.CodeBadUserInput, "%s must be a positive id", idField(t.Kind))
	}
	ok, err := c.targets.Exists(ctx, t)
	if err != nil {
		return fmt.Errorf("look up %s %d: %w", t.Kind, t.ID, err)
	}
	if !ok {
		return domain.Errorf(domain.CodeNotFound, "no %s %d", noun(t.Kind), t.ID)
	}
	return nil
}

// Favorite marks t as one of the user's favourites. Marking it again changes nothing
// (the first mark keeps its time), also past the limit. Errors: UNAUTHENTICATED without
// a user, BAD_USER_INPUT for a bad id or once the user holds MaxPerUser favourites,
// NOT_FOUND for a shop or voucher that does not exist.
func (c *Commands) Favorite(ctx context.Context, userID int64, t domain.FavoriteTarget) error {
	if err := c.checkTarget(ctx, userID, t); err != nil {
		return err
	}
	_, err := c.store.Add(ctx, domain.Favorite{UserID: userID, Target: t, CreatedAt: c.now()}, func(held int) error {
		if held >= c.max {
			return domain.Errorf(domain.CodeBadUserInput,
				"you keep %d favourites, the most allowed: take some back before adding more", held)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("favourite %s %d: %w", noun(t.Kind), t.ID, err)
	}
	return nil
}

// Unfavorite takes the user's mark of t back; taking back one that is not there
// changes nothing. Errors as Favorite's, without the limit.
func (c *Commands) Unfavorite(ctx context.Context, userID int64, t domain.FavoriteTarget) error {
	if err := c.checkTarget(ctx, userID, t); err != nil {
		return err
	}
	if _, err := c.store.Remove(ctx, userID, t); err != nil {
		return fmt.Errorf("take back favourite %s %d: %w", noun(t.Kind), t.ID, err)
	}
	return nil
}

// Page is one page of a user's favourites, newest first.
type Page struct {
	Favorites   []domain.Favorite
	HasNextPage bool
}

// MyFavorites pages through the user's favourites, newest first: first of them (0: the
// default page) older than the favourite with id before (0: from the newest). A
// favourite taken back and given again is new. Errors: UNAUTHENTICATED without a user,
// BAD_USER_INPUT for a bad page size.
func (q *Queries) MyFavorites(ctx context.Context, userID int64, first int, before int64) (Page, error) {
	if userID <= 0 {
		return Page{}, domain.Errorf(domain.CodeUnauthenticated, "log in first")
	}
	size, err := q.pages.Size(first)
	if err != nil {
		return Page{}, err
	}
	if before < 0 {
		return Page{}, domain.BadCursor()
	}
	favs, err := q.store.OfUser(ctx, userID, before, size+1)
	if err != nil {
		return Page{}, fmt.Errorf("list favourites: %w", err)
	}
	p := Page{Favorites: favs}
	if len(favs) > size {
		p.Favorites, p.HasNextPage = favs[:size], true
	}
	return p, nil
}

// Marked tells which of ids (shops or vouchers, by kind) the user marked: none for an
// anonymous caller (userID 0), without asking the store.
func (q *Queries) Marked(ctx context.Context, userID int64, kind domain.FavoriteKind, ids []int64) (map[int64]bool, error) {
	ids = batchread.PositiveIDs(ids)
	if userID <= 0 || len(ids) == 0 {
		return map[int64]bool{}, nil
	}
	m, err := q.store.Marked(ctx, userID, kind, ids)
	if err != nil {
		return nil, fmt.Errorf("read favourites: %w", err)
	}
	return m, nil
}

// ShopCounts tells how many users marked each of the shops (0 for those nobody did),
// with one read of the store.
func (q *Queries) ShopCounts(ctx context.Context, shopIDs []int64) (map[int64]int, error) {
	ids := batchread.PositiveIDs(shopIDs)
	if len(ids) == 0 {
		return map[int64]int{}, nil
	}
	m, err := q.store.Counts(ctx, domain.FavoriteShop, ids)
	if err != nil {
		return nil, fmt.Errorf("count favourites: %w", err)
	}
	return m, nil
}

// MaxFansPage bounds one page of Fans.
const MaxFansPage = 1000

// Fans lists the users who marked the shop as a favourite, by id: up to limit (at most
// MaxFansPage) ids greater than after. It is how a shop's new sale reaches its fans:
// a notifier pages through them with the last id of each page as the next after.
func (q *Queries) Fans(ctx context.Context, shopID, after int64, limit int) ([]int64, error) {
	if shopID <= 0 || limit <= 0 {
		return nil, nil
	}
	ids, err := q.store.Fans(ctx, domain.FavoriteTarget{Kind: domain.FavoriteShop, ID: shopID}, after, min(limit, MaxFansPage))
	if err != nil {
		return nil, fmt.Errorf("list fans of shop %d: %w", shopID, err)
	}
	return ids, nil
}

func noun(k domain.FavoriteKind) string {
	if k == domain.FavoriteVoucher {
		return "voucher"
	}
	return "shop"
}

func idField(k domain.FavoriteKind) string { return noun(k) + "Id" }
