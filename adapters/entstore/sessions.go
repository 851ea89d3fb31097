package entstore

import (
	"context"
	"fmt"
	"time"

	"github.com/dealspot/dealspot/ent"
	"github.com/dealspot/dealspot/ent/predicate"
	"github.com/dealspot/dealspot/ent/session"
	"github.com/dealspot/dealspot/ent/sessiontoken"
	"github.com/dealspot/dealspot/internal/app/auth"
)

// Sessions keeps login sessions (refresh-token families) and their spent tokens: the
// durable copy that Redis caches. Times are stored in UTC.
type Sessions struct {
	client *ent.Client
}

var _ auth.SessionRecords = (*Sessions)(nil)
var _ auth.SessionImports = (*Sessions)(nil)

// Sessions returns the session repository.
func (s *Store) Sessions() *Sessions { return &Sessions{client: s.client} }

// CreateFamily implements auth.SessionRecords.
func (r *Sessions) CreateFamily(ctx context.Context, userID int64, familyID, tokenHash string, expiresAt time.Time) error {
	err := r.client.Session.Create().
		SetID(familyID).
		SetUserID(userID).
		SetTokenHash(tokenHash).
		SetExpiresAt(expiresAt.UTC()).
		Exec(ctx)
	if err != nil {
		return fmt.Errorf("create session: %w", err)
	}
	return nil
}

// Create stores family familyID of userID with tokenHash as its current token, valid for
// ttl from now. It is for tools that mint sessions without logging in (the load
// generator); the server's own sessions go through auth.
func (r *Sessions) Create(ctx context.Context, userID int64, familyID, tokenHash string, ttl time.Duration) error {
	return r.CreateFamily(ctx, userID, familyID, tokenHash, time.Now().Add(ttl))
}

// RotateFamily implements auth.SessionRecords. One transaction: a conditional update
// replaces the current token only if it is still oldHash (PostgreSQL re-checks the
// condition after a concurrent rotation commits; SQLite runs writers one at a time), and
// the spent token is recorded with it.
func (r *Sessions) RotateFamily(ctx context.Context, userID int64, familyID, oldHash, newHash string, now, expiresAt time.Time) (auth.Rotation, error) {
	now = now.UTC()
	rot := auth.RefreshUnknown
	err := WithTx(ctx, r.client, func(tx *ent.Tx) error {
		live := []predicate.Session{
			session.ID(familyID), session.UserID(userID),
			session.RevokedAtIsNil(), session.ExpiresAtGT(now),
		}
		n, err := tx.Session.Update().
			Where(append(live, session.TokenHash(oldHash))...).
			SetTokenHash(newHash).
			SetExpiresAt(expiresAt.UTC()).
			Save(ctx)
		if err != nil {
			return fmt.Errorf("replace current token: %w", err)
		}
		if n == 1 {
			rot = auth.RefreshRotated
			return tx.SessionToken.Create().SetSessionID(familyID).SetTokenHash(oldHash).Exec(ctx)
		}
		spent, err := tx.SessionToken.Query().
			Where(sessiontoken.SessionID(familyID), sessiontoken.TokenHash(oldHash)).
			Exist(ctx)
		if err != nil || !spent {
			return err
		}
		n, err = tx.Session.Update().Where(live...).SetRevokedAt(now).Save(ctx)
		if err != nil {
			return fmt.Errorf("revoke session: %w", err)
		}
		if n == 1 {
			rot = auth.RefreshReused
		}
		return nil
	})
	if err != nil {
		return auth.RefreshUnknown, fmt.Errorf("rotate session: %w", err)
	}
	return rot, nil
}

// Family implements auth.SessionRecords.
func (r *Sessions) Family(ctx context.Context, userID int64, familyID string, now time.Time) (bool, time.Time, error) {
	row, err := r.client.Session.Query().
		Where(session.ID(familyID), session.UserID(userID)).
		Select(session.FieldExpiresAt, session.FieldRevokedAt).
		Only(ctx)
	switch {
	case ent.IsNotFound(err):
		return false, time.Time{}, nil
	case err != nil:
		return false, time.Time{}, fmt.Errorf("load session: %w", err)
	}
	if row.RevokedAt != nil || !row.ExpiresAt.After(now) {
		return false, time.Time{}, nil
	}
	return true, row.ExpiresAt, nil
}

// RevokeFamily implements auth.SessionRecords.
func (r *Sessions) RevokeFamily(ctx context.Context, userID int64, familyID string, now time.Time) error {
	_, err := r.client.Session.Update().
		Where(session.ID(familyID), session.UserID(userID), session.RevokedAtIsNil()).
		SetRevokedAt(now.UTC()).
		Save(ctx)
	if err != nil {
		return fmt.Errorf("revoke session: %w", err)
	}
	return nil
}

// RevokeFamilies implements auth.SessionRecords.
func (r *Sessions) RevokeFamilies(ctx context.Context, userID int64, now time.Time) ([]string, error) {
	now = now.UTC()
	var ids []string
	err := WithTx(ctx, r.client, func(tx *ent.Tx) error {
		_, err := tx.Session.Update().
			Where(session.UserID(userID), session.RevokedAtIsNil()).
			SetRevokedAt(now).
			Save(ctx)
		if err != nil {
			return err
		}
		ids, err = tx.Session.Query().
			Where(session.UserID(userID), session.ExpiresAtGT(now)).
			IDs(ctx)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("revoke sessions of user %d: %w", userID, err)
	}
	return ids, nil
}

// DeleteExpired implements auth.SessionRecords.
func (r *Sessions) DeleteExpired(ctx context.Context, now time.Time, limit int) (int, error) {
	var n int
	err := WithTx(ctx, r.client, func(tx *ent.Tx) error {
		ids, err := tx.Session.Query().
			Where(session.ExpiresAtLTE(now.UTC())).
			Limit(limit).
			IDs(ctx)
		if err != nil || len(ids) == 0 {
			return err
		}
		if _, err := tx.SessionToken.Delete().Where(sessiontoken.SessionIDIn(ids...)).Exec(ctx); err != nil {
			return err
		}
		n, err = tx.Session.Delete().Where(session.IDIn(ids...)).Exec(ctx)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("delete expired sessions: %w", err)
	}
	return n, nil
}

// importTokenBatch is how many spent tokens one INSERT of ImportFamily carries.
const importTokenBatch = 1000

// ImportFamily implements auth.SessionImports in one transaction: the family, unless its
// id is stored already, then its spent tokens. Of two concurrent imports of one family
// one stores it; the other's insert conflicts and reports it stored already.
func (r *Sessions) ImportFamily(ctx context.Context, f auth.LegacyFamily) (bool, error) {
	stored := false
	err := WithTx(ctx, r.client, func(tx *ent.Tx) error {
		exists, err := tx.Session.Query().Where(session.ID(f.FamilyID)).Exist(ctx)
		if err != nil || exists {
			return err
		}
		err = tx.Session.Create().
			SetID(f.FamilyID).
			SetUserID(f.UserID).
			SetTokenHash(f.TokenHash).
			SetExpiresAt(f.ExpiresAt.UTC()).
			Exec(ctx)
		if err != nil {
			return err
		}
		for start := 0; start < len(f.Spent); start += importTokenBatch {
			batch := f.Spent[start:min(start+importTokenBatch, len(f.Spent))]
			creates := make([]*ent.SessionTokenCreate, len(batch))
			for i, h := range batch {
				creates[i] = tx.SessionToken.Create().SetSessionID(f.FamilyID).SetTokenHash(h)
			}
			err := tx.SessionToken.CreateBulk(creates...).
				OnConflictColumns(sessiontoken.FieldSessionID, sessiontoken.FieldTokenHash).
				DoNothing().
				Exec(ctx)
			if err != nil {
				return fmt.Errorf("store spent tokens: %w", err)
			}
		}
		stored = true
		return nil
	})
	switch {
	case ent.IsConstraintError(err):
		return false, nil // imported concurrently
	case err != nil:
		return false, fmt.Errorf("import session %s: %w", f.FamilyID, err)
	}
	return stored, nil
}
