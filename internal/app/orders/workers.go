package orders

import (
	"context"
	"log/slog"

	"github.com/dealspot/dealspot/internal/app/periodic"
	"github.com/dealspot/dealspot/internal/domain"
)

// Expirer cancels unpaid orders whose pay deadline passed.
type Expirer struct{ c *core }

// RunOnce cancels every order due now, batch by batch, returns their flash-sale units
// to the gate and tells subscribers; it returns how many it canceled.
func (w *Expirer) RunOnce(ctx context.Context) (int, error) {
	total := 0
	for {
		expired, err := w.c.d.Orders.ExpireDue(ctx, w.c.now(), w.c.cfg.ExpiryBatch, w.c.d.Sales.LineHold())
		if err != nil {
			return total, err
		}
		total += len(expired)
		bySale := map[int64][]domain.VoucherOrder{}
		for _, o := range expired {
			bySale[o.VoucherID] = append(bySale[o.VoucherID], o)
		}
		for vid, os := range bySale {
			w.c.returnUnits(ctx, vid, os)
		}
		for _, o := range expired {
			w.c.publish(ctx, o, string(domain.CancelTimeout))
		}
		if len(expired) < w.c.cfg.ExpiryBatch {
			return total, nil
		}
	}
}

// Run sweeps every ExpiryInterval until ctx ends.
func (w *Expirer) Run(ctx context.Context) {
	periodic.Every(ctx, w.c.cfg.ExpiryInterval, func() {
		if n, err := w.RunOnce(ctx); err != nil && ctx.Err() == nil {
			w.c.log.Warn("order expiry sweep failed; the next one tries again", slog.Int("canceled", n), slog.Any("error", err))
		} else if n > 0 {
			w.c.log.Info("unpaid orders canceled at their deadline", slog.Int("orders", n))
		}
	})
}

// RefundWorker sends the refunds still owed to the provider.
type RefundWorker struct{ c *core }

// refundBatch is how many owed refunds one pass sends.
const refundBatch = 100

// RunOnce sends the owed refunds and returns how many the provider confirmed.
func (w *RefundWorker) RunOnce(ctx context.Context) (int, error) {
	due, err := w.c.d.Payments.RefundsDue(ctx, refundBatch)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, p := range due {
		reason := p.RefundReason
		if reason == "" {
			reason = refundReasonLate
		}
		if err := w.c.d.Provider.Refund(ctx, p, reason); err != nil {
			w.c.log.Warn("refund not sent; it will be retried", slog.Int64("payment_id", p.ID), slog.Any("error", err))
			continue
		}
		if ok, err := w.c.d.Payments.MarkRefunded(ctx, p.ID, w.c.now()); err != nil {
			return n, err
		} else if ok {
			n++
			w.refunded(ctx, p)
		}
	}
	return n, nil
}

// refunded tells the subscribers of p's order that its money went back.
func (w *RefundWorker) refunded(ctx context.Context, p domain.Payment) {
	o, err := w.c.d.Orders.Order(ctx, p.OrderID)
	if err != nil {
		w.c.log.Warn("cannot tell a refund to its order's subscribers", slog.Int64("payment_id", p.ID), slog.Any("error", err))
		return
	}
	w.c.publish(ctx, o, domain.EventPaymentRefunded)
}

// Run sends owed refunds every RefundRetryInterval until ctx ends.
func (w *RefundWorker) Run(ctx context.Context) {
	periodic.Every(ctx, w.c.cfg.RefundRetryInterval, func() {
		if _, err := w.RunOnce(ctx); err != nil && ctx.Err() == nil {
			w.c.log.Warn("refund pass failed; the next one tries again", slog.Any("error", err))
		}
	})
}
