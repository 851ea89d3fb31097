package seckill

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/dealspot/dealspot/internal/domain"
)

// Reasons an order FAILED.
const (
	ReasonDuplicate = "already claimed"
	ReasonNoStock   = "sold out"
	ReasonPoison    = "the order could not be written"
	ReasonExpired   = "the order was not written in time"
	ReasonIDTaken   = "the order id belongs to another order"
	// ReasonLost: the claim was lost with Redis before its order was written.
	ReasonLost = domain.FailLost
)

// OrderWriter writes the orders of queued claims: the queue consumer's handler and its
// dead-letter path.
type OrderWriter struct{ c *core }

// ProcessClaims writes the orders of a batch of claims (the queue consumer's handler).
// It is idempotent: a claim delivered again finds its order and reports its status again.
// An error means nothing was written and the batch should be retried.
func (w *OrderWriter) ProcessClaims(ctx context.Context, claims []domain.Claim) error {
	if len(claims) == 0 {
		return nil
	}
	res, err := w.c.d.Orders.WriteClaims(ctx, claims, w.c.cfg.PayTimeout)
	if err != nil {
		w.c.d.Observer.WriteFailed(len(claims))
		return fmt.Errorf("write %d orders: %w", len(claims), err)
	}
	w.c.d.Observer.OrdersWritten(len(res.Created))
	byVoucher := map[int64][]int64{}
	for _, c := range res.Created {
		byVoucher[c.VoucherID] = append(byVoucher[c.VoucherID], c.OrderID)
	}
	// Settling and the status events are two round trips to different places that
	// depend only on the commit (readers look in the database before the reservations),
	// so they overlap; the batch is done when both are.
	settled := make(chan struct{})
	go func() {
		defer close(settled)
		for vid, ids := range byVoucher {
			if err := w.c.d.Stock.Settle(ctx, vid, ids); err != nil {
				// The reconciler settles reservations whose orders exist.
				w.c.log.Warn("cannot settle reservations", slog.Int64("voucher_id", vid), slog.Any("error", err))
			}
		}
	}()
	// Each created claim's order as it stands: CREATED, PAID (a voucher that costs
	// nothing), or a later status for a claim delivered again.
	byStatus := map[domain.OrderStatus][]domain.Claim{}
	for _, c := range res.Created {
		st := res.Status[c.OrderID]
		if st == "" {
			st = domain.OrderCreated
		}
		byStatus[st] = append(byStatus[st], c)
	}
	for st, cs := range byStatus {
		w.c.publish(ctx, st, "", cs...)
	}
	w.soldChanged(ctx, byStatus[domain.OrderPaid])
	<-settled
	// A duplicate user holds another order: give the unit back, keep the user's slot.
	for _, c := range res.Duplicate {
		w.failOrLeave(ctx, c, Release{Stock: true}, ReasonDuplicate)
	}
	// The database had no stock for these: Redis gave out more than it should (after a
	// rebuild), so the unit does not go back, only the user's slot.
	for _, c := range res.NoStock {
		w.failOrLeave(ctx, c, Release{Slot: true}, ReasonNoStock)
	}
	// The claim's id is another order's: nothing was written for it, so its unit and
	// the user's slot go back.
	for _, c := range res.IDTaken {
		w.failOrLeave(ctx, c, Release{Stock: true, Slot: true}, ReasonIDTaken)
	}
	return nil
}

// soldChanged tells the cached copies of the shops of claims whose orders are PAID
// (vouchers that cost nothing, sold as they were written) that their sold counts moved.
func (w *OrderWriter) soldChanged(ctx context.Context, paid []domain.Claim) {
	if w.c.d.Sold == nil || len(paid) == 0 {
		return
	}
	seen := map[int64]bool{}
	var shops []int64
	for _, c := range paid {
		if seen[c.VoucherID] {
			continue
		}
		seen[c.VoucherID] = true
		if v, found, err := w.c.voucher(ctx, c.VoucherID); err == nil && found && v.ShopID > 0 {
			shops = append(shops, v.ShopID)
		}
	}
	if len(shops) > 0 {
		w.c.d.Sold.SoldChanged(context.WithoutCancel(ctx), shops...)
	}
}

// failOrLeave fails c; when that cannot be done now the reservation stays, and the
// reconciler settles it later from the database.
func (w *OrderWriter) failOrLeave(ctx context.Context, c domain.Claim, rel Release, reason string) {
	if err := w.c.fail(ctx, c, rel, reason); err != nil {
		w.c.log.Warn("cannot fail a claim now; the reconciler will settle it", slog.Int64("order_id", c.OrderID),
			slog.String("reason", reason), slog.Any("error", err))
	}
}

// FailClaim gives up on a claim whose order cannot be written (the dead-letter path): the
// order is recorded FAILED and its stock and the user's slot go back. If the order was
// written after all, it stays CREATED.
func (w *OrderWriter) FailClaim(ctx context.Context, c domain.Claim, reason string) error {
	if reason == "" {
		reason = ReasonPoison
	}
	return w.c.fail(ctx, c, Release{Stock: true, Slot: true}, reason)
}

func (s *core) fail(ctx context.Context, c domain.Claim, rel Release, reason string) error {
	o, err := s.d.Orders.FailClaim(ctx, c, reason)
	if err != nil {
		return fmt.Errorf("record failed order %d: %w", c.OrderID, err)
	}
	if o.UserID != c.UserID || o.VoucherID != c.VoucherID {
		// The id is another claim's order: that order is not this claim's, and no
		// FAILED row can be recorded under its id.
		o.Status = domain.OrderFailed
	}
	if o.Status != domain.OrderFailed {
		// Written after all: it stands.
		if err := s.d.Stock.Settle(ctx, c.VoucherID, []int64{c.OrderID}); err != nil {
			s.log.Warn("cannot settle reservation", slog.Int64("order_id", c.OrderID), slog.Any("error", err))
		}
		s.publish(ctx, o.Status, "", c)
		return nil
	}
	if _, err := s.giveBack(ctx, c.VoucherID, unitsBack{Drop: c.OrderID, User: c.UserID, Release: rel, Line: true}); err != nil {
		return fmt.Errorf("return stock of failed order %d: %w", c.OrderID, err)
	}
	s.d.Observer.OrderFailed(failReasonOf(reason))
	s.log.Warn("order failed", slog.Int64("order_id", c.OrderID), slog.Int64("voucher_id", c.VoucherID), slog.String("reason", reason))
	s.publish(ctx, domain.OrderFailed, reason, c)
	return nil
}

// publish tells every node that the claims' orders reached status.
func (s *core) publish(ctx context.Context, status domain.OrderStatus, reason string, claims ...domain.Claim) {
	if len(claims) == 0 {
		return
	}
	now := s.now()
	events := make([]domain.OrderEvent, len(claims))
	for i, c := range claims {
		events[i] = domain.OrderEvent{OrderID: c.OrderID, UserID: c.UserID, VoucherID: c.VoucherID, Status: status, Reason: reason, At: now}
	}
	if err := s.d.Status.Publish(context.WithoutCancel(ctx), events...); err != nil {
		// Subscribers fall back on polling order(id).
		s.log.Warn("cannot publish order status", slog.Int("orders", len(claims)), slog.Any("error", err))
	}
}

// failReasonOf classifies a failure by the reason told to the user; any other reason is
// the dead-letter path's.
func failReasonOf(reason string) FailReason {
	switch reason {
	case ReasonDuplicate:
		return FailDuplicate
	case ReasonNoStock:
		return FailNoStock
	case ReasonExpired:
		return FailExpired
	case ReasonIDTaken:
		return FailIDTaken
	case ReasonLost:
		return FailLost
	default:
		return FailPoison
	}
}
