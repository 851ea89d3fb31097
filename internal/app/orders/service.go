// Package orders holds an order's life after the claim: buying normal vouchers, paying
// through a payment provider, canceling, refunding, redeeming at the shop, the expiry
// of unpaid orders, and what merchants read about their shops' orders and sales.
//
//	PENDING ─▶ CREATED ─▶ PAID ─▶ USED
//	   │          │          └──▶ REFUNDED
//	   ▼          └──▶ CANCELED (by the buyer, or the payment deadline passed)
//	 FAILED
//
// The moves are the domain's transition table (domain.OrderMoves); the rows live
// behind one port, OrderStore, which the flash sale's claim path (package seckill)
// writes its claims through too. PENDING and FAILED belong to that claim path; this
// package moves orders on from CREATED. Every move is one conditional transition in the
// store, so racing moves have one winner. A canceled or refunded flash-sale order gives
// its unit back to the sale's database stock in the same transaction, then to the sale's
// live stock through the flash sale (port Sales, package seckill), at most once per
// order; the seckill reconciler repairs the gate should a node die in between.
//
// The expiry is a database sweep: the pay deadline lives in the order row, and every
// ExpiryInterval each node cancels the due orders in batches (the store makes
// concurrent sweeps take disjoint orders).
package orders

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// Config holds the lifecycle's settings.
type Config struct {
	// PayTimeout is how long a CREATED order waits for payment (ORDER_PAY_TIMEOUT).
	PayTimeout time.Duration
	// ReclaimAfterCancel lets a user claim a sale again after their order of it was
	// canceled or refunded (ORDER_RECLAIM_AFTER_CANCEL).
	ReclaimAfterCancel bool
	// MaxQuantity bounds the vouchers one buyVoucher buys (ORDER_MAX_QUANTITY).
	MaxQuantity int
	// ExpiryInterval is how often the expiry sweeps (ORDER_EXPIRY_INTERVAL); ExpiryBatch
	// is how many orders one transaction cancels (ORDER_EXPIRY_BATCH).
	ExpiryInterval time.Duration
	ExpiryBatch    int
	// RefundRetryInterval is how often refunds still owed are sent to the provider again
	// (PAYMENT_REFUND_RETRY_INTERVAL).
	RefundRetryInterval time.Duration
	// StatsInterval is the shortest time between two saleStats pushes
	// (SALE_STATS_INTERVAL).
	StatsInterval time.Duration
	// Pages bounds shopOrders.
	Pages domain.PageLimits
}

// Deps are the adapters the lifecycle needs.
type Deps struct {
	Orders   OrderStore
	Payments PaymentStore
	Vouchers Vouchers
	Shops    Shops
	// Sales is the flash sale's stock: units of released orders go back through it.
	Sales    Sales
	Provider PaymentProvider
	Status   StatusPublisher
	IDs      IDGenerator
	// Sold is told when orders moved shops' sold counts (nil: nobody caches them).
	Sold SoldChanges
	// Credits award paid orders' credits (nil: no credits are kept).
	Credits Credits
	// Notifier tells buyers that their orders were paid, refunded or canceled for want
	// of payment (nil: nobody is told).
	Notifier Notifier
	Log      *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Service is the lifecycle's use cases, one type each.
type Service struct {
	Buy        *BuyVoucher
	Pay        *PayOrder
	Payments   *PaymentNotifications
	Cancel     *CancelOrder
	Refund     *RequestRefund
	Redeem     *RedeemOrder
	ShopOrders *ShopOrders
	// OrderPayments reads the payments of orders for those who may see them.
	OrderPayments *OrderPayments
	SaleStats     *SaleStats
	Expirer       *Expirer
	Refunds       *RefundWorker
}

// core is what the use cases share.
type core struct {
	cfg Config
	d   Deps
	log *slog.Logger
	now func() time.Time
}

// New checks deps and builds the use cases.
func New(cfg Config, d Deps) (*Service, error) {
	if d.Orders == nil || d.Payments == nil || d.Vouchers == nil || d.Shops == nil || d.Sales == nil || d.Provider == nil ||
		d.Status == nil || d.IDs == nil {
		return nil, errors.New("orders: missing dependency")
	}
	if err := cfg.Pages.Validate(); err != nil {
		return nil, err
	}
	if cfg.PayTimeout <= 0 {
		cfg.PayTimeout = 15 * time.Minute
	}
	if cfg.MaxQuantity <= 0 {
		cfg.MaxQuantity = 10
	}
	if cfg.ExpiryInterval <= 0 {
		cfg.ExpiryInterval = time.Second
	}
	if cfg.ExpiryBatch <= 0 {
		cfg.ExpiryBatch = 1000
	}
	if cfg.RefundRetryInterval <= 0 {
		cfg.RefundRetryInterval = 10 * time.Second
	}
	if cfg.StatsInterval <= 0 {
		cfg.StatsInterval = 500 * time.Millisecond
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	c := &core{cfg: cfg, d: d, log: d.Log, now: d.Now}
	return &Service{
		Buy: &BuyVoucher{c}, Pay: &PayOrder{c}, Payments: &PaymentNotifications{c}, Cancel: &CancelOrder{c},
		Refund: &RequestRefund{c}, Redeem: &RedeemOrder{c}, ShopOrders: &ShopOrders{c}, OrderPayments: &OrderPayments{c}, SaleStats: &SaleStats{c},
		Expirer: &Expirer{c}, Refunds: &RefundWorker{c},
	}, nil
}

// loggedIn refuses an anonymous actor.
func loggedIn(a domain.Actor) error {
	if !a.Authenticated() {
		return domain.Errorf(domain.CodeUnauthenticated, "log in first")
	}
	return nil
}

// ownOrder reads the actor's order; NOT_FOUND for an unknown id and for anyone else's.
func (c *core) ownOrder(ctx context.Context, a domain.Actor, id int64) (domain.VoucherOrder, error) {
	if err := loggedIn(a); err != nil {
		return domain.VoucherOrder{}, err
	}
	if id <= 0 {
		return domain.VoucherOrder{}, domain.Errorf(domain.CodeNotFound, "no such order")
	}
	o, err := c.d.Orders.Order(ctx, id)
	if errors.Is(err, domain.ErrNotFound) || (err == nil && o.UserID != a.UserID) {
		return domain.VoucherOrder{}, domain.Errorf(domain.CodeNotFound, "no such order")
	}
	return o, err
}

// soldChanged tells the shop's cached copies that its sold count moved with o.
func (c *core) soldChanged(ctx context.Context, o domain.VoucherOrder) {
	if c.d.Sold != nil && o.ShopID > 0 {
		c.d.Sold.SoldChanged(context.WithoutCancel(ctx), o.ShopID)
	}
}

// publish tells every node an order moved; a failure is logged (subscribers re-read).
// The moves a buyer hears of in their inbox go to it too.
func (c *core) publish(ctx context.Context, o domain.VoucherOrder, reason string) {
	e := domain.OrderEvent{OrderID: o.ID, UserID: o.UserID, VoucherID: o.VoucherID, Status: o.Status, Reason: reason, At: c.now()}
	if err := c.d.Status.Publish(context.WithoutCancel(ctx), e); err != nil {
		c.log.Warn("cannot publish order status", slog.Int64("order_id", o.ID), slog.Any("error", err))
	}
	if kind, ok := notificationOf(e); ok && c.d.Notifier != nil {
		c.d.Notifier.Notify(ctx, domain.NotificationEvent{Kind: kind, RecipientID: o.UserID, OrderID: o.ID, At: e.At})
	}
}

// notificationOf tells which notification an order's event gives its buyer: its
// payment (the provider's notification, not the buyer's request), its refund, its
// cancel for want of payment. The buyer's own cancel and the refund's money coming back
// later are not told.
func notificationOf(e domain.OrderEvent) (domain.NotificationKind, bool) {
	switch {
	case e.Status == domain.OrderPaid && e.Reason == "":
		return domain.NotifyOrderPaid, true
	case e.Status == domain.OrderRefunded && e.Reason == "":
		return domain.NotifyOrderRefunded, true
	case e.Status == domain.OrderCanceled && e.Reason == string(domain.CancelTimeout):
		return domain.NotifyOrderExpired, true
	}
	return "", false
}

// returnUnits gives the units of released flash-sale orders of one sale back to the
// sale, which reopens it on every node. A failure is logged: the database already has
// the units, and the reconciler's drift repair brings the gate in line.
func (c *core) returnUnits(ctx context.Context, voucherID int64, released []domain.VoucherOrder) {
	if _, err := c.d.Sales.ReturnUnits(context.WithoutCancel(ctx), voucherID, released, c.cfg.ReclaimAfterCancel); err != nil {
		c.log.Warn("cannot return units to the gate; the reconciler will", slog.Int64("voucher_id", voucherID),
			slog.Int("orders", len(released)), slog.Any("error", err))
	}
}

// refused is the CONFLICT of action a on o, whose status a does not start from (a
// transition that did not win).
func refused(o domain.VoucherOrder, a domain.OrderAction) error {
	return domain.MoveRefused(o.Status, a)
}
