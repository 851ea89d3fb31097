package entstore

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/dealspot/dealspot/ent"
	"github.com/dealspot/dealspot/ent/voucherorder"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
)

// Orders reads and writes voucher orders.
type Orders struct {
	client  *ent.Client
	db      *sql.DB
	dialect string
}

var _ seckill.Orders = (*Orders)(nil)

// Orders returns the order repository.
func (s *Store) Orders() *Orders { return &Orders{client: s.client, db: s.db, dialect: s.dialect} }

// CreateOrder stores one order under the id the application gave it. An empty status
// means CREATED. A second order for the same user and voucher, or a reused order id, is
// a domain.ErrConflict error.
func (r *Orders) CreateOrder(ctx context.Context, o domain.VoucherOrder) error {
	if o.ID <= 0 {
		return domain.Errorf(domain.CodeBadUserInput, "order id must be positive")
	}
	if o.Status == "" {
		o.Status = domain.OrderCreated
	}
	c := r.client.VoucherOrder.Create().
		SetID(o.ID).
		SetUserID(o.UserID).
		SetVoucherID(o.VoucherID).
		SetStatus(voucherorder.Status(o.Status)).
		SetNillablePayTime(o.PayTime).
		SetNillableUseTime(o.UseTime).
		SetNillableRefundTime(o.RefundTime)
	if !o.CreatedAt.IsZero() {
		c.SetCreatedAt(o.CreatedAt)
	}
	if err := c.Exec(ctx); err != nil {
		return fmt.Errorf("create order %d: %w", o.ID,
			translate(err, "order", domain.CodeConflict, "order already exists"))
	}
	return nil
}

// Order returns one order, or domain.ErrNotFound.
func (r *Orders) Order(ctx context.Context, id int64) (domain.VoucherOrder, error) {
	row, err := r.client.VoucherOrder.Get(ctx, id)
	if err != nil {
		return domain.VoucherOrder{}, fmt.Errorf("load order %d: %w", id, notFound(err, "order"))
	}
	return toOrder(row), nil
}

func toOrder(o *ent.VoucherOrder) domain.VoucherOrder {
	out := domain.VoucherOrder{
		ID:           o.ID,
		UserID:       o.UserID,
		VoucherID:    o.VoucherID,
		ShopID:       o.ShopID,
		Kind:         domain.VoucherKind(o.Kind),
		Quantity:     o.Quantity,
		Amount:       o.Amount,
		Status:       domain.OrderStatus(o.Status),
		CreatedAt:    o.CreatedAt,
		PayDeadline:  o.PayDeadline,
		PayTime:      o.PayTime,
		UseTime:      o.UseTime,
		CanceledAt:   o.CanceledAt,
		CancelReason: domain.CancelReason(o.CancelReason),
		RefundTime:   o.RefundTime,
		RefundReason: o.RefundReason,
		FailReason:   o.FailReason,
	}
	if o.RedemptionCode != nil {
		out.RedemptionCode = *o.RedemptionCode
	}
	return out
}
