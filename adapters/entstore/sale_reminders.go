package entstore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"

	"github.com/dealspot/dealspot/ent"
	"github.com/dealspot/dealspot/ent/flashsale"
	"github.com/dealspot/dealspot/ent/salereminder"
	"github.com/dealspot/dealspot/internal/app/inbox"
	"github.com/dealspot/dealspot/internal/app/reminders"
	"github.com/dealspot/dealspot/internal/domain"
)

// SaleReminders keeps users' sale reminders (table sale_reminders) and sends the due
// ones into the inboxes (table notifications) in the transaction that claims them.
type SaleReminders struct {
	client  *ent.Client
	dialect string
	inbox   *Notifications
}

var _ reminders.Store = (*SaleReminders)(nil)

// NewSaleReminders returns the sale reminders' repository of s. (A function rather
// than a method of Store, whose methods are at archcheck's cap.)
func NewSaleReminders(s *Store) *SaleReminders {
	return &SaleReminders{client: s.client, dialect: s.dialect, inbox: NewNotifications(s)}
}

// remindersLockClass is the first key of the PostgreSQL advisory locks that make one
// user's adds take turns (the second is the user id folded into 32 bits).
const remindersLockClass = 0x52454d44 // "REMD"

// maxDueSales bounds the sales one claim names (bind parameters); sales past it are
// reached by the next batch, once the first ones' reminders are sent.
const maxDueSales = 500

// Add implements reminders.Store in one transaction. The user's adds take turns
// (PostgreSQL: a transaction-scoped advisory lock on the user; SQLite: the database's
// write lock, taken at BEGIN IMMEDIATE), so the count allow sees stays true until the
// insert; the unique index on (user_id, voucher_id) backs the check for a reminder
// already there.
func (r *SaleReminders) Add(ctx context.Context, rem domain.SaleReminder, allow func(waiting int) error) (bool, error) {
	if rem.UserID <= 0 || rem.VoucherID <= 0 {
		return false, domain.Errorf(domain.CodeBadUserInput, "a reminder needs a user and a sale")
	}
	var added bool
	err := WithTx(ctx, r.client, func(tx *ent.Tx) error {
		if r.dialect == dialect.Postgres {
			if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1, $2)", remindersLockClass, int32(rem.UserID)); err != nil {
				return fmt.Errorf("lock the user's reminders: %w", err)
			}
		}
		there, err := tx.SaleReminder.Query().Where(salereminder.UserID(rem.UserID), salereminder.VoucherID(rem.VoucherID)).Exist(ctx)
		if err != nil || there {
			return err
		}
		waiting, err := tx.SaleReminder.Query().Where(salereminder.UserID(rem.UserID), salereminder.SentAtIsNil()).Count(ctx)
		if err != nil {
			return fmt.Errorf("count reminders: %w", err)
		}
		if err := allow(waiting); err != nil {
			return err
		}
		err = tx.SaleReminder.Create().SetUserID(rem.UserID).SetVoucherID(rem.VoucherID).SetCreatedAt(rem.CreatedAt.UTC()).Exec(ctx)
		if err != nil {
			return fmt.Errorf("store reminder: %w", err)
		}
		added = true
		return nil
	})
	if err != nil {
		return false, err
	}
	return added, nil
}

// Remove implements reminders.Store.
func (r *SaleReminders) Remove(ctx context.Context, userID, voucherID int64) (bool, error) {
	n, err := r.client.SaleReminder.Delete().Where(salereminder.UserID(userID), salereminder.VoucherID(voucherID)).Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("remove reminder: %w", err)
	}
	return n > 0, nil
}

// Reminded implements reminders.Store with one query.
func (r *SaleReminders) Reminded(ctx context.Context, userID int64, voucherIDs []int64) (map[int64]bool, error) {
	out := make(map[int64]bool, len(voucherIDs))
	if len(voucherIDs) == 0 {
		return out, nil
	}
	var rows []struct {
		VoucherID int64 `json:"voucher_id"`
	}
	err := r.client.SaleReminder.Query().
		Where(salereminder.UserID(userID), salereminder.VoucherIDIn(voucherIDs...)).
		Select(salereminder.FieldVoucherID).Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("read reminders of user %d: %w", userID, err)
	}
	for _, row := range rows {
		out[row.VoucherID] = true
	}
	return out, nil
}

// Counts implements reminders.Store with one grouped query.
func (r *SaleReminders) Counts(ctx context.Context, voucherIDs []int64) (map[int64]int, error) {
	out := make(map[int64]int, len(voucherIDs))
	if len(voucherIDs) == 0 {
		return out, nil
	}
	var rows []struct {
		VoucherID int64 `json:"voucher_id"`
		Count     int   `json:"count"`
	}
	err := r.client.SaleReminder.Query().Where(salereminder.VoucherIDIn(voucherIDs...)).
		GroupBy(salereminder.FieldVoucherID).Aggregate(ent.Count()).Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("count reminders: %w", err)
	}
	for _, row := range rows {
		out[row.VoucherID] = row.Count
	}
	return out, nil
}

// SendDue implements reminders.Store. The sales with waiting reminders are read first
// and their windows compared in Go (SQLite keeps times as text in the offset they were
// written with); then one transaction claims up to limit waiting reminders of the due
// sales — UPDATE … SET sent_at WHERE sent_at IS NULL, skipping rows another node's
// claim holds on PostgreSQL (FOR UPDATE SKIP LOCKED); SQLite runs one writer at a
// time — and adds their notifications, taking the users' turns in ascending order of
// user id. It commits both or neither.
func (r *SaleReminders) SendDue(ctx context.Context, d reminders.Due, limit int, notification func(domain.SaleReminder) inbox.Addition) ([]domain.SaleReminder, error) {
	if limit <= 0 {
		return nil, nil
	}
	sales, err := r.dueSales(ctx, d)
	if err != nil || len(sales) == 0 {
		return nil, err
	}
	var sent []domain.SaleReminder
	err = WithTx(ctx, r.client, func(tx *ent.Tx) error {
		claimed, err := r.claim(ctx, tx, sales, d, limit)
		if err != nil {
			return err
		}
		slices.SortFunc(claimed, func(a, b domain.SaleReminder) int {
			return cmp.Or(cmp.Compare(a.UserID, b.UserID), cmp.Compare(a.ID, b.ID))
		})
		for _, rem := range claimed {
			if _, _, err := r.inbox.addInTx(ctx, tx, notification(rem)); err != nil {
				return fmt.Errorf("write the reminder of user %d for sale %d: %w", rem.UserID, rem.VoucherID, err)
			}
		}
		sent = claimed
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("send due reminders: %w", err)
	}
	return sent, nil
}

// dueSales returns the ids of the sales with waiting reminders that are due at d.
func (r *SaleReminders) dueSales(ctx context.Context, d reminders.Due) ([]int64, error) {
	sales, err := r.client.FlashSale.Query().Where(func(s *entsql.Selector) {
		waiting := entsql.Select(salereminder.FieldVoucherID).From(entsql.Table(salereminder.Table)).
			Where(entsql.IsNull(salereminder.FieldSentAt))
		s.Where(entsql.In(s.C(flashsale.FieldID), waiting))
	}).Select(flashsale.FieldID, flashsale.FieldBeginTime, flashsale.FieldEndTime).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("read the sales with waiting reminders: %w", err)
	}
	var due []int64
	for _, s := range sales {
		if !d.Now.Before(s.BeginTime.Add(-d.Lead)) && d.Now.Before(s.EndTime) {
			due = append(due, s.ID)
		}
	}
	slices.Sort(due)
	return due[:min(len(due), maxDueSales)], nil
}

// claim marks up to limit waiting reminders of sales sent at d.Now and returns them.
func (r *SaleReminders) claim(ctx context.Context, tx *ent.Tx, sales []int64, d reminders.Due, limit int) ([]domain.SaleReminder, error) {
	a := &args{o: &rawSQL{dialect: r.dialect}}
	now := a.p(d.Now.UTC())
	in := make([]string, len(sales))
	for i, id := range sales {
		in[i] = a.p(id)
	}
	lock := ""
	if r.dialect == dialect.Postgres {
		lock = " FOR UPDATE SKIP LOCKED"
	}
	q := "UPDATE sale_reminders SET sent_at = " + now +
		" WHERE id IN (SELECT id FROM sale_reminders WHERE sent_at IS NULL AND voucher_id IN (" + strings.Join(in, ", ") + ")" +
		" ORDER BY id LIMIT " + a.p(limit) + lock + ") AND sent_at IS NULL RETURNING id, user_id, voucher_id"
	rows, err := tx.QueryContext(ctx, q, a.vals...)
	if err != nil {
		return nil, fmt.Errorf("claim due reminders: %w", err)
	}
	defer rows.Close()
	var out []domain.SaleReminder
	for rows.Next() {
		rem := domain.SaleReminder{SentAt: &d.Now}
		if err := rows.Scan(&rem.ID, &rem.UserID, &rem.VoucherID); err != nil {
			return nil, fmt.Errorf("read a claimed reminder: %w", err)
		}
		out = append(out, rem)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("claim due reminders: %w", err)
	}
	return out, nil
}
