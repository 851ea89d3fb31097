package entstore

import (
	"context"
	"fmt"
	"time"

	"github.com/dealspot/dealspot/ent"
	"github.com/dealspot/dealspot/ent/voucherorder"
	"github.com/dealspot/dealspot/internal/app/inbox"
	"github.com/dealspot/dealspot/internal/domain"
)

// ExpiryWarnings marks the unpaid orders whose buyers were warned of their pay deadline
// (voucher_orders.expiry_warned_at).
type ExpiryWarnings struct {
	client *ent.Client
}

var _ inbox.ExpiryWarnings = (*ExpiryWarnings)(nil)

// NewExpiryWarnings returns the expiry warnings' repository of s.
func NewExpiryWarnings(s *Store) *ExpiryWarnings { return &ExpiryWarnings{client: s.client} }

// DueWarnings implements inbox.ExpiryWarnings; it reads through the index of unpaid
// orders by deadline.
func (r *ExpiryWarnings) DueWarnings(ctx context.Context, now, until time.Time, limit int) ([]domain.VoucherOrder, error) {
	if limit <= 0 {
		return nil, nil
	}
	rows, err := r.client.VoucherOrder.Query().
		Where(voucherorder.StatusEQ(voucherorder.StatusCREATED), voucherorder.ExpiryWarnedAtIsNil(),
			voucherorder.PayDeadlineGT(now.UTC()), voucherorder.PayDeadlineLTE(until.UTC())).
		Order(ent.Asc(voucherorder.FieldPayDeadline)).
		Limit(limit).
		All(ctx)
	if err != nil {
		return nil, fmt.Errorf("read orders to warn of their deadline: %w", err)
	}
	return toOrders(rows), nil
}

// MarkWarned implements inbox.ExpiryWarnings with one conditional UPDATE: of nodes that
// race, one changes the row.
func (r *ExpiryWarnings) MarkWarned(ctx context.Context, orderID int64, at time.Time) (bool, error) {
	n, err := r.client.VoucherOrder.Update().
		Where(voucherorder.ID(orderID), voucherorder.StatusEQ(voucherorder.StatusCREATED), voucherorder.ExpiryWarnedAtIsNil()).
		SetExpiryWarnedAt(at.UTC()).
		Save(ctx)
	if err != nil {
		return false, fmt.Errorf("mark order %d warned: %w", orderID, err)
	}
	return n == 1, nil
}

// UnmarkWarned implements inbox.ExpiryWarnings.
func (r *ExpiryWarnings) UnmarkWarned(ctx context.Context, orderID int64) error {
	if err := r.client.VoucherOrder.UpdateOneID(orderID).ClearExpiryWarnedAt().Exec(ctx); err != nil && !ent.IsNotFound(err) {
		return fmt.Errorf("unmark order %d warned: %w", orderID, err)
	}
	return nil
}
