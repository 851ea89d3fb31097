package entstore

import (
	"context"
	"fmt"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"

	"github.com/dealspot/dealspot/ent"
	"github.com/dealspot/dealspot/ent/favorite"
	"github.com/dealspot/dealspot/internal/app/favorites"
	"github.com/dealspot/dealspot/internal/domain"
)

// Favorites reads and writes users' favourite shops and vouchers.
type Favorites struct {
	client  *ent.Client
	dialect string
}

var _ favorites.Store = (*Favorites)(nil)

// NewFavorites returns the favourites' repository in s. (A function rather than a
// method of Store, whose methods are at archcheck's cap.)
func NewFavorites(s *Store) *Favorites { return &Favorites{client: s.client, dialect: s.dialect} }

// favoritesLockClass is the first key of the PostgreSQL advisory locks that make one
// user's adds take turns (the second is the user id, folded into 32 bits: two users
// sharing a lock only wait for each other).
const favoritesLockClass = 0x46415653 // "FAVS"

// Add implements favorites.Store in one transaction. The user's adds take turns
// (PostgreSQL: a transaction-scoped advisory lock on the user; SQLite: the database's
// write lock, taken at BEGIN IMMEDIATE), so the count allow sees stays true until the
// insert; the unique index on (user_id, kind, target_id) backs the check for a mark
// already there.
func (r *Favorites) Add(ctx context.Context, f domain.Favorite, allow func(held int) error) (bool, error) {
	if f.UserID <= 0 || !f.Target.Kind.Valid() || f.Target.ID <= 0 {
		return false, domain.Errorf(domain.CodeBadUserInput, "a favourite needs a user and a shop or a voucher")
	}
	var added bool
	err := WithTx(ctx, r.client, func(tx *ent.Tx) error {
		if r.dialect == dialect.Postgres {
			if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1, $2)", favoritesLockClass, int32(f.UserID)); err != nil {
				return fmt.Errorf("lock the user's favourites: %w", err)
			}
		}
		there, err := tx.Favorite.Query().Where(favorite.UserID(f.UserID), ofTarget(f.Target)).Exist(ctx)
		if err != nil || there {
			return err
		}
		held, err := tx.Favorite.Query().Where(favorite.UserID(f.UserID)).Count(ctx)
		if err != nil {
			return fmt.Errorf("count favourites: %w", err)
		}
		if err := allow(held); err != nil {
			return err
		}
		err = tx.Favorite.Create().SetUserID(f.UserID).SetKind(favorite.Kind(f.Target.Kind)).SetTargetID(f.Target.ID).
			SetCreatedAt(f.CreatedAt).Exec(ctx)
		if err != nil {
			return fmt.Errorf("store favourite: %w", err)
		}
		added = true
		return nil
	})
	if err != nil {
		return false, err
	}
	return added, nil
}

func ofTarget(t domain.FavoriteTarget) func(*entsql.Selector) {
	return favorite.And(favorite.KindEQ(favorite.Kind(t.Kind)), favorite.TargetID(t.ID))
}

// Remove implements favorites.Store.
func (r *Favorites) Remove(ctx context.Context, userID int64, t domain.FavoriteTarget) (bool, error) {
	n, err := r.client.Favorite.Delete().Where(favorite.UserID(userID), ofTarget(t)).Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("remove favourite: %w", err)
	}
	return n > 0, nil
}

// OfUser implements favorites.Store through the index on (user_id, id).
func (r *Favorites) OfUser(ctx context.Context, userID, before int64, limit int) ([]domain.Favorite, error) {
	q := r.client.Favorite.Query().Where(favorite.UserID(userID))
	if before > 0 {
		q.Where(favorite.IDLT(before))
	}
	rows, err := q.Order(favorite.ByID(entsql.OrderDesc())).Limit(limit).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list favourites of user %d: %w", userID, err)
	}
	out := make([]domain.Favorite, len(rows))
	for i, f := range rows {
		out[i] = domain.Favorite{ID: f.ID, UserID: f.UserID, CreatedAt: f.CreatedAt,
			Target: domain.FavoriteTarget{Kind: domain.FavoriteKind(f.Kind), ID: f.TargetID}}
	}
	return out, nil
}

// Marked implements favorites.Store with one query.
func (r *Favorites) Marked(ctx context.Context, userID int64, kind domain.FavoriteKind, ids []int64) (map[int64]bool, error) {
	out := make(map[int64]bool, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var rows []struct {
		TargetID int64 `json:"target_id"`
	}
	err := r.client.Favorite.Query().
		Where(favorite.UserID(userID), favorite.KindEQ(favorite.Kind(kind)), favorite.TargetIDIn(ids...)).
		Select(favorite.FieldTargetID).
		Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("read favourites of user %d: %w", userID, err)
	}
	for _, row := range rows {
		out[row.TargetID] = true
	}
	return out, nil
}

// Counts implements favorites.Store with one grouped query over the index on (kind,
// target_id, user_id).
func (r *Favorites) Counts(ctx context.Context, kind domain.FavoriteKind, ids []int64) (map[int64]int, error) {
	out := make(map[int64]int, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var rows []struct {
		TargetID int64 `json:"target_id"`
		Count    int   `json:"count"`
	}
	err := r.client.Favorite.Query().
		Where(favorite.KindEQ(favorite.Kind(kind)), favorite.TargetIDIn(ids...)).
		GroupBy(favorite.FieldTargetID).
		Aggregate(ent.Count()).
		Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("count favourites: %w", err)
	}
	for _, row := range rows {
		out[row.TargetID] = row.Count
	}
	return out, nil
}

// Fans implements favorites.Store through the index on (kind, target_id, user_id).
func (r *Favorites) Fans(ctx context.Context, t domain.FavoriteTarget, after int64, limit int) ([]int64, error) {
	var rows []struct {
		UserID int64 `json:"user_id"`
	}
	err := r.client.Favorite.Query().
		Where(ofTarget(t), favorite.UserIDGT(after)).
		Order(favorite.ByUserID()).
		Limit(limit).
		Select(favorite.FieldUserID).
		Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("list fans of %s %d: %w", t.Kind, t.ID, err)
	}
	out := make([]int64, len(rows))
	for i, row := range rows {
		out[i] = row.UserID
	}
	return out, nil
}
