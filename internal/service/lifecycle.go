package service

import (
	"context"
	"crypto/rand"
	"log/slog"
	"net"
	"sync"

	"github.com/dealspot/dealspot/adapters/payment/simpay"
	"github.com/dealspot/dealspot/internal/app"
	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/app/shop"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/server"
)

// startLifecycle builds what follows the claim — buying, paying (through the simulated
// provider), canceling, refunding, redeeming — and starts the expiry sweep and the
// refund retries. Units of released flash-sale orders go back through sales, the flash
// sale's (so startSeckill calls it once the flash sale is built); sold refreshes the
// cached shops whose sold counts orders moved.
func (s *Node) startLifecycle(sales orders.Sales, ids seckill.IDGenerator, status orders.StatusPublisher, sold orders.SoldChanges) error {
	cfg := s.Config
	secret := []byte(cfg.Payment.WebhookSecret)
	if len(secret) == 0 {
		// Only this node's own simulated provider signs with it.
		secret = []byte(rand.Text())
		s.Log.Warn("PAYMENT_WEBHOOK_SECRET is not set: payment notifications are signed with a secret drawn for this process")
	}
	simCfg := simpay.Config{Secret: secret, Delay: cfg.Payment.SimDelay, Log: s.Log, NotifyURL: cfg.Payment.NotifyURL}
	if simCfg.NotifyURL == "" {
		simCfg.NotifyURLFunc = func() string { return ownNotifyURL(cfg.Addr) }
	}
	provider, err := simpay.New(simCfg)
	if err != nil {
		return err
	}
	s.closers = append(s.closers, provider.Close)
	svc, err := orders.New(orders.Config{
		PayTimeout:          cfg.Orders.PayTimeout,
		ReclaimAfterCancel:  cfg.Orders.ReclaimAfterCancel,
		MaxQuantity:         cfg.Orders.MaxQuantity,
		ExpiryInterval:      cfg.Orders.ExpiryInterval,
		ExpiryBatch:         cfg.Orders.ExpiryBatch,
		RefundRetryInterval: cfg.Payment.RefundRetryInterval,
		StatsInterval:       cfg.Orders.StatsInterval,
		Pages:               domain.PageLimits{Default: cfg.Paging.DefaultPageSize, Max: cfg.Paging.MaxPageSize},
	}, orders.Deps{
		Orders: s.Store.Orders(), Payments: s.Store.Payments(), Vouchers: s.Store.Vouchers(), Shops: s.Store.Shops(), Sales: sales,
		Provider: provider, Status: status, IDs: ids, Sold: sold, Credits: s.Store.Users().Credits(), Notifier: s.notifications,
		Log: s.Log,
	})
	if err != nil {
		return err
	}
	setOwner, err := shop.NewSetOwner(s.Store.Shops(), s.promote, s.shopInvalidator)
	if err != nil {
		return err
	}
	s.App.Commands.LifecycleCommands, s.App.Queries.LifecycleQueries, s.Ops.LifecycleOperations = app.Lifecycle(svc, setOwner)
	s.paymentNotify = simpay.Handler(simpay.Verifier{Secret: secret, Tolerance: cfg.Payment.SignatureTolerance},
		s.Ops.PaymentNotifications.Notify, s.Log)

	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); s.Ops.OrderExpiry.Run(ctx) }()
	go func() { defer wg.Done(); s.Ops.Refunds.Run(ctx) }()
	s.closers = append(s.closers, func() error { cancel(); wg.Wait(); return nil })
	s.Log.Info("order lifecycle ready", slog.Duration("pay_timeout", cfg.Orders.PayTimeout),
		slog.Duration("expiry_interval", cfg.Orders.ExpiryInterval), slog.String("payment_provider", provider.Name()))
	return nil
}

// ownNotifyURL is the /payments/notify of the server listening on addr (this one's),
// where the simulated provider posts when PAYMENT_NOTIFY_URL is not set.
func ownNotifyURL(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "http://127.0.0.1:8080" + server.PaymentNotifyPath
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + server.PaymentNotifyPath
}
