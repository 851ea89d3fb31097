package service

import (
	"context"
	"sync"
	"time"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/app/reminders"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
)

// WithReminderClock gives the sale reminders (their checks of a sale's window and the
// sender's due time) the clock now, so that tests can move time.
func WithReminderClock(now func() time.Time) Option {
	return func(o *options) { o.remindersNow = now }
}

// reminderSales reads reminded sales through the voucher reads (and their cache).
type reminderSales struct{ vouchers *seckill.VouchersOfShop }

var _ reminders.Sales = reminderSales{}

// Voucher implements reminders.Sales.
func (r reminderSales) Voucher(ctx context.Context, id int64) (domain.Voucher, bool, error) {
	v, found, err := r.vouchers.ByID(ctx, id)
	return v.Voucher, found, err
}

// startReminders builds the sale reminders on the store, the vouchers and the inbox's
// bus, and starts this node's sender; it stops before the stores close.
func (s *Node) startReminders(o options) error {
	cfg := s.Config.Reminders
	svc, err := reminders.New(reminders.Config{MaxPerUser: cfg.MaxPerUser, Before: cfg.Before, Interval: cfg.Interval},
		reminders.Deps{
			Store: entstore.NewSaleReminders(s.Store), Sales: reminderSales{s.App.Queries.Vouchers},
			Owners: s.Store.Shops(), Bus: s.notificationBus, Log: s.Log, Now: o.remindersNow,
		})
	if err != nil {
		return err
	}
	s.App.Commands.Reminders, s.App.Queries.Reminders, s.Ops.SaleReminders = svc.Commands, svc.Queries, svc.Sender
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { svc.Sender.Run(ctx) })
	s.closers = append(s.closers, func() error { cancel(); wg.Wait(); return nil })
	return nil
}
