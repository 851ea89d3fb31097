package entstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// Credits keeps the users' credit awards (table credit_awards, one row per user, reason
// and reference) together with each user's sum of them (users.credits): every award and
// every take-back is one transaction that moves both, so the sum never drifts from the
// awards and a repeated award finds its key taken.
type Credits struct{ o *rawSQL }

// keyWhere is the WHERE clause of one award's key.
func (r *Credits) keyWhere(a *args, userID int64, reason domain.CreditReason, ref int64) string {
	return " WHERE user_id = " + a.p(userID) + " AND reason = " + a.p(string(reason)) + " AND ref = " + a.p(ref)
}

// insert adds an award row unless its key is taken, and reports whether it did.
func (r *Credits) insert(ctx context.Context, tx *sql.Tx, aw domain.CreditAward) (bool, error) {
	a := &args{o: r.o}
	res, err := tx.ExecContext(ctx, "INSERT INTO credit_awards (user_id, reason, ref, amount, created_at) VALUES ("+
		a.p(aw.UserID)+", "+a.p(string(aw.Reason))+", "+a.p(aw.Ref)+", "+a.p(aw.Amount)+", "+a.p(time.Now().UTC())+
		") ON CONFLICT DO NOTHING", a.vals...)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// addCredits adds delta to a user's credits; domain.ErrNotFound for an unknown user (the
// transaction is then rolled back).
func (r *Credits) addCredits(ctx context.Context, tx *sql.Tx, userID int64, delta int) error {
	a := &args{o: r.o}
	res, err := tx.ExecContext(ctx, "UPDATE users SET credits = credits + "+a.p(delta)+" WHERE id = "+a.p(userID), a.vals...)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return domain.ErrNotFound
	}
	return nil
}

// Award stores an award unless its key is taken (awarded, or taken back, before) and
// adds its amount to the user's credits, in one transaction; it reports whether it did.
// An award of nothing, or to a user who does not exist (any more), stores nothing.
// Errors: BAD_USER_INPUT for a malformed award.
func (r *Credits) Award(ctx context.Context, aw domain.CreditAward) (bool, error) {
	if aw.UserID <= 0 || aw.Reason == "" || aw.Amount < 0 {
		return false, domain.Errorf(domain.CodeBadUserInput, "an award needs a user, a reason and an amount")
	}
	if aw.Amount == 0 {
		return false, nil
	}
	var awarded bool
	err := r.o.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		if awarded, err = r.insert(ctx, tx, aw); err != nil || !awarded {
			return err
		}
		return r.addCredits(ctx, tx, aw.UserID, aw.Amount)
	})
	if errors.Is(err, domain.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("award %s %d credits to user %d: %w", aw.Reason, aw.Ref, aw.UserID, err)
	}
	return awarded, nil
}

// Revoke takes an award back in one transaction: its amount comes off the user's
// credits and its row stays with amount 0, so the key stays taken — an award that had
// not been made yet (it comes late) adds nothing. It reports whether there was an amount
// to take back.
func (r *Credits) Revoke(ctx context.Context, userID int64, reason domain.CreditReason, ref int64) (bool, error) {
	var revoked bool
	err := r.o.inTx(ctx, func(tx *sql.Tx) error {
		revoked = false
		taken, err := r.insert(ctx, tx, domain.CreditAward{UserID: userID, Reason: reason, Ref: ref})
		if err != nil || taken {
			return err
		}
		a := &args{o: r.o}
		var amount int
		// The row exists: locking it makes concurrent take-backs take turns.
		if err := tx.QueryRowContext(ctx, "SELECT amount FROM credit_awards"+r.keyWhere(a, userID, reason, ref)+r.o.forUpdate(), a.vals...).
			Scan(&amount); err != nil {
			return err
		}
		if amount == 0 {
			return nil
		}
		b := &args{o: r.o}
		if _, err := tx.ExecContext(ctx, "UPDATE credit_awards SET amount = 0"+r.keyWhere(b, userID, reason, ref), b.vals...); err != nil {
			return err
		}
		revoked = true
		return r.addCredits(ctx, tx, userID, -amount)
	})
	if errors.Is(err, domain.ErrNotFound) {
		// The user is gone, and their credits with them.
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("take back %s %d credits of user %d: %w", reason, ref, userID, err)
	}
	return revoked, nil
}
