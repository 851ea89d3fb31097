package inbox

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/dealspot/dealspot/internal/app/periodic"
	"github.com/dealspot/dealspot/internal/domain"
)

// ExpiryWarner tells the buyers of unpaid orders, once, that their order is about to be
// canceled: ExpiryWarningBefore before its pay deadline. Every node may run it; the
// conditional mark in the database (ExpiryWarnings.MarkWarned) lets one node warn of
// each order. The warning is written here, not through the event queue: this is a
// background sweep that nothing waits for, and a write that fails takes its mark back,
// so the next sweep warns again.
type ExpiryWarner struct {
	orders   ExpiryWarnings
	writer   *Writer
	before   time.Duration
	interval time.Duration
	batch    int
	now      func() time.Time
	log      *slog.Logger
}

// RunOnce warns the buyers of the orders due now and returns how many it warned.
func (w *ExpiryWarner) RunOnce(ctx context.Context) (int, error) {
	now := w.now()
	due, err := w.orders.DueWarnings(ctx, now, now.Add(w.before), w.batch)
	if err != nil {
		return 0, fmt.Errorf("find orders to warn of their deadline: %w", err)
	}
	var events []domain.NotificationEvent
	var marked []int64
	for _, o := range due {
		ok, err := w.orders.MarkWarned(ctx, o.ID, now)
		if err != nil {
			return 0, fmt.Errorf("mark order %d warned: %w", o.ID, err)
		}
		if !ok {
			continue // another node warns, or the order was paid or canceled meanwhile
		}
		marked = append(marked, o.ID)
		events = append(events, domain.NotificationEvent{Kind: domain.NotifyOrderExpiryWarning, RecipientID: o.UserID, OrderID: o.ID, At: now})
	}
	if len(events) == 0 {
		return 0, nil
	}
	if err := w.writer.Handle(ctx, events); err != nil {
		var errs []error
		for _, id := range marked {
			if uerr := w.orders.UnmarkWarned(context.WithoutCancel(ctx), id); uerr != nil {
				errs = append(errs, uerr)
			}
		}
		return 0, errors.Join(fmt.Errorf("write expiry warnings: %w", err), errors.Join(errs...))
	}
	return len(events), nil
}

// Run warns every interval until ctx ends.
func (w *ExpiryWarner) Run(ctx context.Context) {
	periodic.Every(ctx, w.interval, func() {
		if n, err := w.RunOnce(ctx); err != nil && ctx.Err() == nil {
			w.log.Warn("order expiry warning sweep failed; the next one tries again", slog.Any("error", err))
		} else if n > 0 {
			w.log.Info("buyers warned of their unpaid orders' deadline", slog.Int("orders", n))
		}
	})
}
