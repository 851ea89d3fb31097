package orders_test

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/contracttest"
	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/app/orders/orderstest"
	"github.com/dealspot/dealspot/internal/app/seckill/seckilltest"
	"github.com/dealspot/dealspot/internal/domain"
)

// An order's life on the in-memory stores, payment provider and sales of orderstest and
// the vouchers, shop owners and ids of seckilltest (each held to its port's contract),
// with a log of what the use cases tell the orderStatus subscribers.

// lifecycle is the orders service on the in-memory stores, and what it told the fakes.
type lifecycle struct {
	*orders.Service
	store    *orderstest.Memory
	payStore *orderstest.MemoryPayments
	vouchers *seckilltest.MemVouchers
	sales    *orderstest.MemSales
	provider *orderstest.MemProvider
	status   *statusLog
	sold     *soldLog
	notified *notifyLog
	// skew moves the service's clock ahead of the wall clock (the in-memory store dates
	// a claim's pay deadline by the wall clock).
	mu   sync.Mutex
	skew time.Duration
}

// newLifecycle builds the service on fresh in-memory stores; shops says who runs which
// shop (9 and 10). It is the one place these tests build orders.Deps.
func newLifecycle(t *testing.T, cfg orders.Config, shops *seckilltest.MemShopOwners) *lifecycle {
	t.Helper()
	store := orderstest.NewMemory()
	l := &lifecycle{store: store, payStore: orderstest.NewMemoryPayments(store), vouchers: seckilltest.NewMemVouchers(9, 10),
		sales: orderstest.NewMemSales(), provider: orderstest.NewMemProvider(), status: &statusLog{}, sold: &soldLog{}, notified: &notifyLog{}}
	cfg.Pages = domain.PageLimits{Default: 10, Max: 100}
	svc, err := orders.New(cfg, orders.Deps{Orders: store, Payments: l.payStore, Vouchers: l.vouchers, Shops: shops,
		Sales: l.sales, Provider: l.provider, Status: l.status, IDs: seckilltest.NewMemIDs(1), Sold: l.sold, Notifier: l.notified,
		Log: slog.New(slog.DiscardHandler), Now: l.now})
	if err != nil {
		t.Fatal(err)
	}
	l.Service = svc
	return l
}

// now is the service's clock.
func (l *lifecycle) now() time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	return time.Now().Add(l.skew)
}

// advance moves the service's clock forward by d.
func (l *lifecycle) advance(d time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.skew += d
}

// voucher stores v (on sale, in shop 9 unless it names one) in the vouchers and, under
// the same id, beside the orders (as the database holds it), and returns it with its id.
func (l *lifecycle) voucher(t *testing.T, v domain.Voucher) domain.Voucher {
	t.Helper()
	if v.ShopID == 0 {
		v.ShopID = 9
	}
	v.Status = domain.VoucherOnSale
	v, err := l.vouchers.CreateVoucher(context.Background(), v)
	if err != nil {
		t.Fatal(err)
	}
	return l.store.AddVoucher(v)
}

// flashSale stores a flash sale of stock units at payValue, live (its stock loaded).
func (l *lifecycle) flashSale(t *testing.T, stock int, payValue int64) domain.Voucher {
	t.Helper()
	v := l.voucher(t, domain.Voucher{Kind: domain.VoucherFlashSale, PayValue: payValue, FlashSale: &domain.FlashSale{Stock: stock}})
	l.sales.Open(v.ID, orderstest.SaleSetup{Stock: int64(stock)})
	return v
}

// claim writes user's accepted claim of sale v, as the claim path does (a unit and the
// user's slot taken from the live sale), its payment due within payWithin, and returns
// its order.
func (l *lifecycle) claim(t *testing.T, v domain.Voucher, user int64, payWithin time.Duration) domain.VoucherOrder {
	t.Helper()
	if !l.sales.Take(v.ID, user) {
		t.Fatalf("user %d's claim of sale %d refused by the live sale", user, v.ID)
	}
	c := domain.Claim{OrderID: contracttest.NewID(), UserID: user, VoucherID: v.ID, ClaimedAt: time.Now()}
	if res, err := l.store.WriteClaims(context.Background(), []domain.Claim{c}, payWithin); err != nil || len(res.Created) != 1 {
		t.Fatalf("write claim: %+v, %v", res, err)
	}
	return l.order(t, c.OrderID)
}

// read returns what get reads under id, failing the test on an error.
func read[T any](t *testing.T, get func(context.Context, int64) (T, error), id int64) T {
	t.Helper()
	v, err := get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func (l *lifecycle) order(t *testing.T, id int64) domain.VoucherOrder {
	t.Helper()
	return read(t, l.store.Order, id)
}

func (l *lifecycle) payment(t *testing.T, id int64) domain.Payment {
	t.Helper()
	return read(t, l.payStore.Payment, id)
}

// paid pays order o of buyer: a payment at the provider, then its success notified.
func (l *lifecycle) paid(t *testing.T, buyer domain.Actor, o domain.VoucherOrder) domain.Payment {
	t.Helper()
	ctx := context.Background()
	p, err := l.Pay.Handle(ctx, buyer, o.ID)
	if err != nil {
		t.Fatalf("pay order %d: %v", o.ID, err)
	}
	if err := l.Payments.Notify(ctx, orders.Notification{PaymentID: p.ID, ProviderRef: p.ProviderRef, Succeeded: true, Amount: o.Amount}); err != nil {
		t.Fatalf("notify payment %d: %v", p.ID, err)
	}
	return l.payment(t, p.ID)
}

// wantLedger checks that sale v's orders and payments break no invariant and are settled.
func (l *lifecycle) wantLedger(t *testing.T, v domain.Voucher) {
	t.Helper()
	led, err := l.payStore.Ledger(context.Background(), v.ID)
	if err != nil || len(led.Check()) > 0 || !led.Settled() {
		t.Errorf("ledger of %d: %+v (%q), %v; want it sound and settled", v.ID, led, led.Check(), err)
	}
}

// wantReturned checks the units given back to the sale: exactly those of os.
func (l *lifecycle) wantReturned(t *testing.T, os ...domain.VoucherOrder) {
	t.Helper()
	returned := l.sales.Returned()
	if len(returned) != len(os) {
		t.Fatalf("units back in the sale: %+v, want those of %d orders", returned, len(os))
	}
	for _, o := range os {
		i := slices.IndexFunc(returned, func(u orderstest.ReturnedUnit) bool { return u.OrderID == o.ID })
		if i < 0 || returned[i].UserID != o.UserID || returned[i].VoucherID != o.VoucherID {
			t.Errorf("order %d's unit back in the sale: %+v; want user %d, sale %d", o.ID, returned, o.UserID, o.VoucherID)
		}
	}
}

// statusLog records the orderStatus events. It stays private: the tests check every
// event an order ever had, those of Buy included (whose order id is not known before),
// and seckilltest.MemStatusBus, like the real bus, delivers only to subscribers already
// listening to an order.
type statusLog struct {
	mu     sync.Mutex
	events []domain.OrderEvent
}

func (s *statusLog) Publish(_ context.Context, es ...domain.OrderEvent) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.events = append(s.events, es...)
	return nil
}

// want checks the events of order id: one per status given, in order, as "STATUS" or
// "STATUS/reason".
func (s *statusLog) want(t *testing.T, id int64, want ...string) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	var got []string
	for _, e := range s.events {
		if e.OrderID == id {
			got = append(got, strings.TrimSuffix(string(e.Status)+"/"+e.Reason, "/"))
		}
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("events of order %d: %v, want %v", id, got, want)
	}
}

// notifyLog records the events handed to the buyers' inboxes.
type notifyLog struct {
	mu     sync.Mutex
	events []domain.NotificationEvent
}

func (n *notifyLog) Notify(_ context.Context, e domain.NotificationEvent) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.events = append(n.events, e)
}

// want checks the kinds told of order id, in order.
func (n *notifyLog) want(t *testing.T, id int64, want ...domain.NotificationKind) {
	t.Helper()
	n.mu.Lock()
	defer n.mu.Unlock()
	var got []domain.NotificationKind
	for _, e := range n.events {
		if e.OrderID == id {
			got = append(got, e.Kind)
			if e.RecipientID != buyer.UserID || e.ActorID != 0 || e.At.IsZero() {
				t.Errorf("event %+v; want it to the buyer %d, from nobody, dated", e, buyer.UserID)
			}
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("told of order %d: %v, want %v", id, got, want)
	}
}

// Buyers are told that their orders were paid, refunded, or canceled for want of
// payment — not that they canceled one themselves.
func TestBuyersAreToldOfPaymentsRefundsAndExpiry(t *testing.T) {
	ctx := context.Background()
	l := newLifecycle(t, orders.Config{PayTimeout: 10 * time.Minute}, owners(9, 70))
	v := l.voucher(t, domain.Voucher{Kind: domain.VoucherNormal, PayValue: 300})
	buy := func() domain.VoucherOrder {
		t.Helper()
		o, err := l.Buy.Handle(ctx, buyer, v.ID, 1)
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	refunded, canceled, expired := buy(), buy(), buy()
	l.paid(t, buyer, refunded)
	if _, err := l.Refund.Handle(ctx, buyer, refunded.ID, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Cancel.Handle(ctx, buyer, canceled.ID); err != nil {
		t.Fatal(err)
	}
	l.advance(11 * time.Minute)
	if n, err := l.Expirer.RunOnce(ctx); err != nil || n != 1 {
		t.Fatalf("expiry: %d, %v; want 1", n, err)
	}
	l.notified.want(t, refunded.ID, domain.NotifyOrderPaid, domain.NotifyOrderRefunded)
	l.notified.want(t, canceled.ID)
	l.notified.want(t, expired.ID, domain.NotifyOrderExpired)
}

// wantConflict checks that err is a CONFLICT naming the order's current status.
func wantConflict(t *testing.T, what string, err error, status domain.OrderStatus) {
	t.Helper()
	var e *domain.Error
	if domain.ErrorCode(err) != domain.CodeConflict || !asError(err, &e) || e.CurrentStatus != string(status) {
		t.Errorf("%s: %v, want CONFLICT with current status %s", what, err, status)
	}
}

func wantCode(t *testing.T, what string, err error, code domain.Code) {
	t.Helper()
	if domain.ErrorCode(err) != code {
		t.Errorf("%s: %v, want %s", what, err, code)
	}
}

var (
	buyer    = domain.Actor{UserID: 5, Role: domain.RoleUser}
	stranger = domain.Actor{UserID: 6, Role: domain.RoleUser}
	merchant = domain.Actor{UserID: 70, Role: domain.RoleMerchant} // runs shop 9
)

// Paying: one payment however often the buyer pays, the order PAID with a code on the
// provider's word, a repeated word changing nothing.
func TestPayOnTheMemoryStores(t *testing.T) {
	ctx := context.Background()
	l := newLifecycle(t, orders.Config{PayTimeout: 10 * time.Minute}, owners(9, 70))
	v := l.voucher(t, domain.Voucher{Kind: domain.VoucherNormal, PayValue: 1250})
	o, err := l.Buy.Handle(ctx, buyer, v.ID, 2)
	if err != nil || o.Status != domain.OrderCreated || o.Amount != 2500 {
		t.Fatalf("buy: %+v, %v", o, err)
	}
	p, err := l.Pay.Handle(ctx, buyer, o.ID)
	if err != nil || p.OrderID != o.ID || p.Amount != 2500 || p.Status != domain.PaymentPending || p.ProviderRef == "" || p.ProviderRef != l.provider.Created()[p.ID] || p.Provider != l.provider.Name() {
		t.Fatalf("pay: %+v, %v", p, err)
	}
	if again, err := l.Pay.Handle(ctx, buyer, o.ID); err != nil || again.ID != p.ID {
		t.Errorf("pay again: %+v, %v; want payment %d back", again, err, p.ID)
	}
	if created := l.provider.Created(); len(created) != 1 {
		t.Errorf("payments asked of the provider: %v, want one", created)
	}
	if _, err := l.Pay.Handle(ctx, stranger, o.ID); domain.ErrorCode(err) != domain.CodeNotFound {
		t.Errorf("paying another's order: %v, want NOT_FOUND", err)
	}
	wantCode(t, "a notification of the wrong amount", l.Payments.Notify(ctx, orders.Notification{PaymentID: p.ID, Succeeded: true, Amount: 1}), domain.CodeBadUserInput)
	wantCode(t, "a notification of an unknown payment", l.Payments.Notify(ctx, orders.Notification{PaymentID: 999_999, Succeeded: true, Amount: 2500}), domain.CodeNotFound)
	if got := l.order(t, o.ID); got.Status != domain.OrderCreated {
		t.Fatalf("order after refused notifications: %+v", got)
	}
	l.status.want(t, o.ID)

	notify := orders.Notification{PaymentID: p.ID, ProviderRef: p.ProviderRef, Succeeded: true, Amount: 2500}
	if err := l.Payments.Notify(ctx, notify); err != nil {
		t.Fatal(err)
	}
	paid := l.order(t, o.ID)
	if paid.Status != domain.OrderPaid || len(paid.RedemptionCode) != domain.RedemptionCodeLen || paid.PayTime == nil {
		t.Fatalf("order after the payment succeeded: %+v", paid)
	}
	if got := l.payment(t, p.ID); got.Status != domain.PaymentSucceeded || got.PaidAt == nil {
		t.Errorf("payment after it succeeded: %+v", got)
	}
	if err := l.Payments.Notify(ctx, notify); err != nil {
		t.Fatalf("the same notification again: %v", err)
	}
	if again := l.order(t, o.ID); again.Status != domain.OrderPaid || again.RedemptionCode != paid.RedemptionCode || !again.PayTime.Equal(*paid.PayTime) {
		t.Errorf("order after a repeated notification: %+v, want it as it was: %+v", again, paid)
	}
	l.status.want(t, o.ID, "PAID")
	_, err = l.Pay.Handle(ctx, buyer, o.ID)
	wantConflict(t, "paying a PAID order", err, domain.OrderPaid)
	if len(l.provider.Refunds()) != 0 {
		t.Errorf("refunds: %v, want none", l.provider.Refunds())
	}
	l.wantLedger(t, v)
}

// A payment that succeeds after its order was canceled is refunded; a refund the
// provider refuses stays owed until the refund worker sends it.
func TestLatePaymentIsRefunded(t *testing.T) {
	ctx := context.Background()
	for _, refusing := range []bool{false, true} {
		l := newLifecycle(t, orders.Config{}, owners(9, 70))
		v := l.voucher(t, domain.Voucher{Kind: domain.VoucherNormal, PayValue: 800})
		o, err := l.Buy.Handle(ctx, buyer, v.ID, 1)
		if err != nil {
			t.Fatal(err)
		}
		p, err := l.Pay.Handle(ctx, buyer, o.ID)
		if err != nil {
			t.Fatal(err)
		}
		if c, err := l.Cancel.Handle(ctx, buyer, o.ID); err != nil || c.Status != domain.OrderCanceled || c.CancelReason != domain.CancelByBuyer {
			t.Fatalf("cancel: %+v, %v", c, err)
		}
		l.provider.Refuse(refusing)
		if err := l.Payments.Notify(ctx, orders.Notification{PaymentID: p.ID, Succeeded: true, Amount: 800}); err != nil {
			t.Fatal(err)
		}
		if got := l.order(t, o.ID); got.Status != domain.OrderCanceled || got.PayTime != nil || got.RedemptionCode != "" {
			t.Errorf("canceled order after a late payment: %+v", got)
		}
		l.wantReturned(t) // a normal voucher has no unit in the gate
		if refusing {
			l.status.want(t, o.ID, "CANCELED/BUYER", "CANCELED/PAYMENT_REFUNDING")
			if got := l.payment(t, p.ID); got.Status != domain.PaymentRefundPending {
				t.Fatalf("late payment whose refund the provider refused: %+v, want REFUND_PENDING", got)
			}
			if n, err := l.Refunds.RunOnce(ctx); err != nil || n != 0 {
				t.Errorf("refund pass while the provider refuses: %d, %v", n, err)
			}
			l.provider.Refuse(false)
			if n, err := l.Refunds.RunOnce(ctx); err != nil || n != 1 {
				t.Errorf("refund pass: %d, %v; want 1", n, err)
			}
		}
		if got := l.payment(t, p.ID); got.Status != domain.PaymentRefunded || got.RefundedAt == nil {
			t.Errorf("late payment (provider refusing first: %v): %+v, want REFUNDED", refusing, got)
		}
		// The buyer is told the money went back (and, while the provider refused, that it
		// was on its way); the order stays CANCELED.
		if refusing {
			l.status.want(t, o.ID, "CANCELED/BUYER", "CANCELED/PAYMENT_REFUNDING", "CANCELED/PAYMENT_REFUNDED")
		} else {
			l.status.want(t, o.ID, "CANCELED/BUYER", "CANCELED/PAYMENT_REFUNDED")
		}
		if reason, ok := l.provider.Refunds()[p.ID]; !ok || reason == "" {
			t.Errorf("refunds at the provider: %v, want payment %d's with a reason", l.provider.Refunds(), p.ID)
		}
		if n, err := l.Refunds.RunOnce(ctx); err != nil || n != 0 {
			t.Errorf("refund pass with nothing owed: %d, %v", n, err)
		}
		l.wantLedger(t, v)
	}
}

// Canceling a flash sale's order gives its unit back: to the database stock, once to
// the gate (with the user's slot when the sale allows a second claim), and reopens the
// sale.
func TestCancelGivesTheUnitBack(t *testing.T) {
	ctx := context.Background()
	l := newLifecycle(t, orders.Config{ReclaimAfterCancel: true}, owners(9, 70))
	v := l.flashSale(t, 2, 500)
	o := l.claim(t, v, buyer.UserID, time.Hour)
	if n, _ := l.store.SaleStock(ctx, v.ID); n != 1 {
		t.Fatalf("stock after a claim %d, want 1", n)
	}
	_, err := l.Cancel.Handle(ctx, stranger, o.ID)
	wantCode(t, "canceling another's order", err, domain.CodeNotFound)
	_, err = l.Cancel.Handle(ctx, domain.Actor{}, o.ID)
	wantCode(t, "canceling anonymously", err, domain.CodeUnauthenticated)
	c, err := l.Cancel.Handle(ctx, buyer, o.ID)
	if err != nil || c.Status != domain.OrderCanceled || c.CancelReason != domain.CancelByBuyer || c.CanceledAt == nil {
		t.Fatalf("cancel: %+v, %v", c, err)
	}
	if n, _ := l.store.SaleStock(ctx, v.ID); n != 2 {
		t.Errorf("stock after the cancel %d, want 2", n)
	}
	l.wantReturned(t, o)
	if holders := l.sales.Holders(v.ID); slices.Contains(holders, buyer.UserID) {
		t.Errorf("slot not freed with the unit: holders %v, want %d gone (ReclaimAfterCancel)", holders, buyer.UserID)
	}
	if n := l.sales.Reopened(v.ID); n != 1 {
		t.Errorf("sale %d reopened %d times, want once", v.ID, n)
	}
	_, err = l.Cancel.Handle(ctx, buyer, o.ID)
	wantConflict(t, "canceling twice", err, domain.OrderCanceled)
	if n, _ := l.store.SaleStock(ctx, v.ID); n != 2 || l.sales.Reopened(v.ID) != 1 {
		t.Errorf("a second cancel changed the stock to %d or reopened the sale again (%d times)", n, l.sales.Reopened(v.ID))
	}
	l.status.want(t, o.ID, "CANCELED/BUYER")
	_, err = l.Pay.Handle(ctx, buyer, o.ID)
	wantConflict(t, "paying a canceled order", err, domain.OrderCanceled)
}

// A refund moves a PAID order to REFUNDED, its payment's money back through the
// provider, a flash sale's unit back to the sale; only a PAID order is refunded.
func TestRefundOnTheMemoryStores(t *testing.T) {
	ctx := context.Background()
	l := newLifecycle(t, orders.Config{}, owners(9, 70))
	v := l.flashSale(t, 3, 500)
	o := l.claim(t, v, buyer.UserID, time.Hour)
	waiting := l.claim(t, v, stranger.UserID, time.Hour)
	p := l.paid(t, buyer, o)
	_, err := l.Refund.Handle(ctx, buyer, o.ID, strings.Repeat("x", 256))
	wantCode(t, "a reason of 256 characters", err, domain.CodeBadUserInput)
	_, err = l.Refund.Handle(ctx, stranger, o.ID, "")
	wantCode(t, "refunding another's order", err, domain.CodeNotFound)
	_, err = l.Refund.Handle(ctx, stranger, waiting.ID, "")
	wantConflict(t, "refunding an unpaid order", err, domain.OrderCreated)
	l.wantReturned(t)

	r, err := l.Refund.Handle(ctx, buyer, o.ID, "changed my mind")
	if err != nil || r.Status != domain.OrderRefunded || r.RefundReason != "changed my mind" || r.RefundTime == nil {
		t.Fatalf("refund: %+v, %v", r, err)
	}
	if got := l.payment(t, p.ID); got.Status != domain.PaymentRefunded || got.RefundReason != "changed my mind" {
		t.Errorf("refunded order's payment %+v, want REFUNDED with the reason", got)
	}
	if l.provider.Refunds()[p.ID] != "changed my mind" {
		t.Errorf("refunds at the provider %v", l.provider.Refunds())
	}
	if n, _ := l.store.SaleStock(ctx, v.ID); n != 2 {
		t.Errorf("stock after the refund %d, want 2", n)
	}
	l.wantReturned(t, o)
	_, err = l.Refund.Handle(ctx, buyer, o.ID, "")
	wantConflict(t, "refunding twice", err, domain.OrderRefunded)
	l.status.want(t, o.ID, "PAID", "REFUNDED")

	// A free order has no payment to give back and no unit in a flash sale.
	free := l.voucher(t, domain.Voucher{Kind: domain.VoucherNormal})
	g, err := l.Buy.Handle(ctx, buyer, free.ID, 1)
	if err != nil || g.Status != domain.OrderPaid {
		t.Fatalf("buy a free voucher: %+v, %v", g, err)
	}
	if r, err := l.Refund.Handle(ctx, buyer, g.ID, ""); err != nil || r.Status != domain.OrderRefunded {
		t.Errorf("refund of a free order: %+v, %v", r, err)
	}
	if len(l.provider.Refunds()) != 1 {
		t.Errorf("refunds at the provider %v, want only the paid order's", l.provider.Refunds())
	}
	l.wantReturned(t, o)
	l.wantLedger(t, v)
	l.wantLedger(t, free)
}

// A redemption code is redeemed once, by whoever runs the order's shop.
func TestRedeemOnTheMemoryStores(t *testing.T) {
	ctx := context.Background()
	l := newLifecycle(t, orders.Config{}, owners(9, 70, 10, 80))
	v := l.voucher(t, domain.Voucher{Kind: domain.VoucherNormal, PayValue: 300})
	o, err := l.Buy.Handle(ctx, buyer, v.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	l.paid(t, buyer, o)
	code := l.order(t, o.ID).RedemptionCode
	for _, c := range []struct {
		name string
		a    domain.Actor
		code string
		want domain.Code
	}{
		{"anonymous", domain.Actor{}, code, domain.CodeUnauthenticated},
		{"the buyer", buyer, code, domain.CodeNotFound},
		{"the merchant of another shop", domain.Actor{UserID: 80, Role: domain.RoleMerchant}, code, domain.CodeNotFound},
		{"a code of the wrong length", merchant, code[1:], domain.CodeNotFound},
		{"an unknown code", merchant, strings.Repeat("0", domain.RedemptionCodeLen), domain.CodeNotFound},
	} {
		_, err := l.Redeem.Handle(ctx, c.a, c.code, 1, nil)
		wantCode(t, c.name, err, c.want)
	}
	if got := l.order(t, o.ID); got.Status != domain.OrderPaid {
		t.Fatalf("refused redemptions moved the order: %+v", got)
	}
	used, err := l.Redeem.Handle(ctx, merchant, " "+strings.ToLower(code)+" ", 1, nil)
	if err != nil || used.Status != domain.OrderUsed || used.UseTime == nil || used.ID != o.ID {
		t.Fatalf("redeemed by the shop's merchant: %+v, %v", used, err)
	}
	_, err = l.Redeem.Handle(ctx, domain.Actor{UserID: 1, Role: domain.RoleAdmin}, code, 1, nil)
	wantConflict(t, "redeeming twice", err, domain.OrderUsed)
	_, err = l.Refund.Handle(ctx, buyer, o.ID, "")
	wantConflict(t, "refunding a used order", err, domain.OrderUsed)
	l.status.want(t, o.ID, "PAID", "USED")
	l.wantLedger(t, v)
}

// The expiry sweep cancels the orders whose pay deadline passed, batch by batch, gives
// a flash sale's units back, and leaves every other order alone.
func TestExpirySweep(t *testing.T) {
	ctx := context.Background()
	l := newLifecycle(t, orders.Config{PayTimeout: 10 * time.Minute, ExpiryBatch: 1}, owners(9, 70))
	sale := l.flashSale(t, 3, 500)
	normal := l.voucher(t, domain.Voucher{Kind: domain.VoucherNormal, PayValue: 200})
	claimed := l.claim(t, sale, buyer.UserID, 10*time.Minute)
	notDue := l.claim(t, sale, stranger.UserID, 2*time.Hour)
	bought, err := l.Buy.Handle(ctx, buyer, normal.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	paid, err := l.Buy.Handle(ctx, buyer, normal.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	l.paid(t, buyer, paid)
	if n, err := l.Expirer.RunOnce(ctx); err != nil || n != 0 {
		t.Fatalf("sweep before any deadline: %d, %v", n, err)
	}

	l.advance(11 * time.Minute)
	_, err = l.Pay.Handle(ctx, buyer, bought.ID)
	wantConflict(t, "paying after the deadline, before the sweep", err, domain.OrderCreated)
	if n, err := l.Expirer.RunOnce(ctx); err != nil || n != 2 {
		t.Fatalf("sweep after two deadlines, one order a batch: %d, %v; want 2", n, err)
	}
	for _, o := range []domain.VoucherOrder{claimed, bought} {
		if got := l.order(t, o.ID); got.Status != domain.OrderCanceled || got.CancelReason != domain.CancelTimeout || got.CanceledAt == nil {
			t.Errorf("expired order %+v", got)
		}
		l.status.want(t, o.ID, "CANCELED/TIMEOUT")
	}
	if got := l.order(t, notDue.ID); got.Status != domain.OrderCreated {
		t.Errorf("order not due: %+v, want it CREATED", got)
	}
	if got := l.order(t, paid.ID); got.Status != domain.OrderPaid {
		t.Errorf("paid order after the sweep: %+v, want it PAID", got)
	}
	if n, _ := l.store.SaleStock(ctx, sale.ID); n != 2 {
		t.Errorf("stock after the sweep %d, want 2", n)
	}
	l.wantReturned(t, claimed)
	if n, err := l.Expirer.RunOnce(ctx); err != nil || n != 0 {
		t.Errorf("a second sweep: %d, %v; want nothing", n, err)
	}
	l.wantLedger(t, sale)
	l.wantLedger(t, normal)
}
