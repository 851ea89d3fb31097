package entstore

import (
	"context"
	"fmt"
	"time"

	entsql "entgo.io/ent/dialect/sql"

	"github.com/dealspot/dealspot/ent"
	"github.com/dealspot/dealspot/ent/signin"
	"github.com/dealspot/dealspot/internal/app/social/signins"
	"github.com/dealspot/dealspot/internal/domain"
)

// SignIns keeps each user's sign-ins: one row per user per month with the month's days
// as a mask (bit d-1 for day d).
type SignIns struct {
	client *ent.Client
}

var _ signins.SignInStore = (*SignIns)(nil)

// SignIns returns the sign-in repository.
func (s *Store) SignIns() *SignIns { return &SignIns{client: s.client} }

// signInMonth is the month column's value for t's calendar month: yyyymm.
func signInMonth(t time.Time) int { return t.Year()*100 + int(t.Month()) }

// Sign implements signins.SignInStore with Merge, then reads the row back.
func (r *SignIns) Sign(ctx context.Context, userID int64, day time.Time) (uint32, error) {
	if err := r.Merge(ctx, userID, day, 1<<(day.Day()-1)); err != nil {
		return 0, err
	}
	return r.Month(ctx, userID, day)
}

// Merge implements signins.SignInStore: one INSERT … ON CONFLICT DO UPDATE SET days =
// days | mask (the same statement on SQLite and PostgreSQL), so concurrent sign-ins of
// one user never lose a day.
func (r *SignIns) Merge(ctx context.Context, userID int64, month time.Time, mask uint32) error {
	if userID <= 0 || mask == 0 || mask >= 1<<31 {
		return domain.Errorf(domain.CodeBadUserInput, "a sign-in needs a user and days of a month")
	}
	err := r.client.SignIn.Create().
		SetUserID(userID).
		SetMonth(signInMonth(month)).
		SetDays(int64(mask)).
		OnConflict(
			entsql.ConflictColumns(signin.FieldUserID, signin.FieldMonth),
			entsql.ResolveWith(func(u *entsql.UpdateSet) {
				excluded := entsql.Dialect(u.Dialect()).Table("excluded").C(signin.FieldDays)
				u.Set(signin.FieldDays, entsql.Expr(u.Table().C(signin.FieldDays)+" | "+excluded))
			}),
		).
		Exec(ctx)
	if err != nil {
		return fmt.Errorf("store sign-ins of user %d: %w", userID, err)
	}
	return nil
}

// Month implements signins.SignInStore.
func (r *SignIns) Month(ctx context.Context, userID int64, month time.Time) (uint32, error) {
	days, err := r.client.SignIn.Query().
		Where(signin.UserID(userID), signin.Month(signInMonth(month))).
		Select(signin.FieldDays).
		Ints(ctx)
	if err != nil {
		return 0, fmt.Errorf("read sign-ins of user %d: %w", userID, err)
	}
	if len(days) == 0 {
		return 0, nil
	}
	return uint32(days[0]), nil
}
