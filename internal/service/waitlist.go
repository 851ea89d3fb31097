package service

import (
	"context"
	"sync"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/app"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/app/waitlist"
)

// startWaitlist builds the waitlists of sold-out sales on the flash sale's stock, makes
// the flash sale offer every returned unit to them first, and starts the sweep of the
// offers that ran out. It runs before the flash sale's workers start, so no unit comes
// back before the waitlist is in place.
func (s *Node) startWaitlist(sale *seckill.Service, ids seckill.IDGenerator, status waitlist.StatusPublisher) error {
	cfg := s.Config
	svc, err := waitlist.New(waitlist.Config{
		OfferTTL:      cfg.Waitlist.OfferTTL,
		MaxPerSale:    cfg.Waitlist.MaxPerSale,
		SweepInterval: cfg.Waitlist.SweepInterval,
		AnnounceGrace: cfg.Waitlist.AnnounceGrace,
		PayTimeout:    cfg.Orders.PayTimeout,
	}, waitlist.Deps{
		Store: entstore.NewWaitlist(s.Store), Sales: sale.ForWaitlist, Vouchers: s.Store.Vouchers(), IDs: ids,
		Status: status, Inbox: &s.notifications.direct, Log: s.Log,
	})
	if err != nil {
		return err
	}
	sale.UseWaitlist(svc.Units)
	s.App.Commands.WaitlistCommands, s.App.Queries.WaitlistQueries, s.Ops.WaitlistOperations = app.Waitlist(svc)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); s.Ops.WaitlistExpiry.Run(ctx) }()
	s.closers = append(s.closers, func() error { cancel(); wg.Wait(); return nil })
	return nil
}
