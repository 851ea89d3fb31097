package reminders

import (
	"context"
	"log/slog"
	"time"

	"github.com/dealspot/dealspot/internal/app/batchread"
	"github.com/dealspot/dealspot/internal/app/inbox"
	"github.com/dealspot/dealspot/internal/app/periodic"
	"github.com/dealspot/dealspot/internal/domain"
)

// Sender writes the notifications of due reminders. Every node runs one: the store's
// claim (sent_at set where it is null, in the transaction that writes the
// notification) makes each reminder sent by one of them, once, and a sender stopped
// half-way leaves what it did not commit to the next pass of any node.
type Sender struct {
	store Store
	bus   Bus
	cfg   Config
	now   func() time.Time
	log   *slog.Logger
}

// RunOnce sends every reminder due now, batch by batch, tells the nodes whose inboxes
// changed, and returns how many it sent.
func (s *Sender) RunOnce(ctx context.Context) (int, error) {
	total := 0
	for {
		now := s.now()
		sent, err := s.store.SendDue(ctx, Due{Now: now, Lead: s.cfg.Before}, s.cfg.Batch, func(r domain.SaleReminder) inbox.Addition {
			return inbox.SaleReminderAddition(r.UserID, r.VoucherID, now)
		})
		if err != nil {
			return total, err
		}
		total += len(sent)
		if len(sent) > 0 {
			users := make([]int64, len(sent))
			for i, r := range sent {
				users[i] = r.UserID
			}
			if err := s.bus.Publish(context.WithoutCancel(ctx), batchread.UniqueIDs(users)...); err != nil {
				// Subscriptions miss the push; the inboxes have the reminders.
				s.log.Warn("cannot announce sale reminders", slog.Int("users", len(users)), slog.Any("error", err))
			}
		}
		if len(sent) < s.cfg.Batch {
			return total, nil
		}
	}
}

// Run sends due reminders every Interval until ctx ends.
func (s *Sender) Run(ctx context.Context) {
	periodic.Every(ctx, s.cfg.Interval, func() {
		if n, err := s.RunOnce(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn("sale reminder pass failed; the next one tries again", slog.Int("sent", n), slog.Any("error", err))
		} else if n > 0 {
			s.log.Info("sale reminders sent", slog.Int("reminders", n))
		}
	})
}
