package entstore_test

import (
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/domain"
)

// The payments and the ledger on every database. (The orders' transitions, expiry and
// writes are the order store's contract: TestOrderStoreContract.)
func TestPayments(t *testing.T) {
	t.Parallel()
	onEveryStore(t, func(t *testing.T, open func(t *testing.T) *entstore.Store) {
		runCases(t, open, []storeCase{
			{"payment settlement: paid, again, refund due, failed", testSettlePayment},
			{"the ledger counts what breaks I6 and I7", testLedger},
		})
	})
}

// lifecycleSale creates a shop and a flash sale with stock and pay value.
func lifecycleSale(t *testing.T, s *entstore.Store, stock int, payValue int64) domain.Voucher {
	t.Helper()
	ctx := t.Context()
	shop, err := s.Shops().CreateShop(ctx, domain.Shop{Name: "shop", TypeID: mustShopType(t, s, "美食").ID, Longitude: 120.1, Latitude: 30.2})
	if err != nil {
		t.Fatal(err)
	}
	v, err := s.Vouchers().CreateVoucher(ctx, domain.Voucher{ShopID: shop.ID, Title: "sale", PayValue: payValue, ActualValue: payValue + 100,
		Kind: domain.VoucherFlashSale, Status: domain.VoucherOnSale,
		FlashSale: &domain.FlashSale{Stock: stock, BeginTime: time.Now().Add(-time.Hour), EndTime: time.Now().Add(time.Hour)}})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// writeClaims writes one claim per user (order id = base + user) and checks they are
// created.
func writeClaims(t *testing.T, s *entstore.Store, v domain.Voucher, base int64, users int, payWithin time.Duration) []int64 {
	t.Helper()
	claims := make([]domain.Claim, users)
	ids := make([]int64, users)
	for i := range claims {
		ids[i] = base + int64(i) + 1
		claims[i] = domain.Claim{OrderID: ids[i], UserID: int64(i) + 1, VoucherID: v.ID, ClaimedAt: time.Now()}
	}
	res, err := s.Orders().WriteClaims(t.Context(), claims, payWithin)
	if err != nil || len(res.Created) != users {
		t.Fatalf("write %d claims: created %d, %v", users, len(res.Created), err)
	}
	return ids
}

func testSettlePayment(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	l, o := s.Payments(), s.Orders()
	v := lifecycleSale(t, s, 3, 700)
	ids := writeClaims(t, s, v, 200, 3, time.Hour)
	pay := func(orderID, paymentID int64) domain.Payment {
		p, created, err := l.CreatePayment(ctx, domain.Payment{ID: paymentID, OrderID: orderID, UserID: 1, Amount: 700, Provider: "sim"})
		if err != nil || !created {
			t.Fatalf("create payment %d: created %v, %v", paymentID, created, err)
		}
		return p
	}
	p := pay(ids[0], 9001)
	if again, created, err := l.CreatePayment(ctx, domain.Payment{ID: 9002, OrderID: ids[0], UserID: 1, Amount: 700}); err != nil || created || again.ID != p.ID {
		t.Errorf("second open payment: %+v created %v, %v; want the first back", again, created, err)
	}
	outcomes := map[orders.SettleOutcome]int{}
	for range 10 {
		st, err := l.SettlePayment(ctx, p.ID, true, time.Now(), domain.NewRedemptionCode())
		if err != nil {
			t.Fatal(err)
		}
		outcomes[st.Outcome]++
	}
	if outcomes[orders.SettledPaid] != 1 || outcomes[orders.SettledAgain] != 9 {
		t.Errorf("ten notifications: %v", outcomes)
	}
	if o, _ := o.Order(ctx, ids[0]); o.Status != domain.OrderPaid || o.RedemptionCode == "" {
		t.Errorf("paid order %+v", o)
	}
	// Paid after its order was canceled: the money is owed back.
	p2 := pay(ids[1], 9003)
	if _, changed, err := o.Transition(ctx, orders.Transition{OrderID: ids[1], From: []domain.OrderStatus{domain.OrderCreated},
		To: domain.OrderCanceled, CancelReason: domain.CancelTimeout, At: time.Now(), ReturnUnit: true}); err != nil || !changed {
		t.Fatal(changed, err)
	}
	st, err := l.SettlePayment(ctx, p2.ID, true, time.Now(), domain.NewRedemptionCode())
	if err != nil || st.Outcome != orders.SettledRefundDue || st.Payment.Status != domain.PaymentRefundPending || st.Order.Status != domain.OrderCanceled {
		t.Errorf("late payment: %+v, %v", st, err)
	}
	due, err := l.RefundsDue(ctx, 10)
	if err != nil || len(due) != 1 || due[0].ID != p2.ID {
		t.Errorf("refunds due %+v, %v", due, err)
	}
	if ok, err := l.MarkRefunded(ctx, p2.ID, time.Now()); err != nil || !ok {
		t.Errorf("mark refunded: %v %v", ok, err)
	}
	if ok, _ := l.MarkRefunded(ctx, p2.ID, time.Now()); ok {
		t.Error("refunded twice")
	}
	// A failed payment leaves the order waiting.
	p3 := pay(ids[2], 9004)
	if st, err := l.SettlePayment(ctx, p3.ID, false, time.Now(), ""); err != nil || st.Outcome != orders.SettledFailed || st.Order.Status != domain.OrderCreated {
		t.Errorf("failed payment: %+v, %v", st, err)
	}
	counts, _, err := o.CountByStatus(ctx, v.ID, time.Now().Add(-time.Hour))
	if err != nil || counts[domain.OrderPaid] != 1 || counts[domain.OrderCanceled] != 1 || counts[domain.OrderCreated] != 1 {
		t.Errorf("counts %v, %v", counts, err)
	}
	shopOrders, err := o.OrdersOfShop(ctx, v.ShopID, []domain.OrderStatus{domain.OrderPaid, domain.OrderCanceled}, 0, 10)
	if err != nil || len(shopOrders) != 2 || shopOrders[0].ID < shopOrders[1].ID {
		t.Errorf("shop orders %+v, %v", shopOrders, err)
	}
}

func testLedger(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	l, o := s.Payments(), s.Orders()
	v := lifecycleSale(t, s, 6, 990)
	ids := writeClaims(t, s, v, 400, 5, time.Hour)
	move := func(id int64, from, to domain.OrderStatus, m *orders.PaymentMove) {
		t.Helper()
		if _, changed, err := o.Transition(ctx, orders.Transition{OrderID: id, From: []domain.OrderStatus{from}, To: to,
			At: time.Now(), CancelReason: domain.CancelByBuyer, ReturnUnit: true, Payment: m}); err != nil || !changed {
			t.Fatalf("order %d %s → %s: changed %v, %v", id, from, to, changed, err)
		}
	}
	pay := func(i int, succeeded bool) domain.Payment {
		t.Helper()
		p, _, err := l.CreatePayment(ctx, domain.Payment{ID: 9100 + int64(i), OrderID: ids[i], UserID: int64(i) + 1, Amount: 990, Provider: "sim"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.SettlePayment(ctx, p.ID, succeeded, time.Now(), domain.NewRedemptionCode()); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ledger := func() orders.Ledger {
		t.Helper()
		led, err := l.Ledger(ctx, v.ID)
		if err != nil {
			t.Fatal(err)
		}
		return led
	}
	pay(0, true)                                          // PAID
	pay(1, true)                                          // PAID, then USED
	move(ids[1], domain.OrderPaid, domain.OrderUsed, nil) //
	move(ids[2], domain.OrderCreated, domain.OrderCanceled, nil)
	late := pay(2, true) // succeeded after the cancel: owed back
	refunded := pay(3, true)
	move(ids[3], domain.OrderPaid, domain.OrderRefunded, &orders.PaymentMove{PaymentID: refunded.ID,
		From: []domain.PaymentStatus{domain.PaymentSucceeded}, To: domain.PaymentRefundPending})
	// ids[4] stays CREATED.
	led := ledger()
	if bad := led.Check(); len(bad) > 0 || led.Orders != 5 || led.Payments != 4 || led.RefundsPending != 2 || led.Settled() {
		t.Errorf("sound sale: %v, ledger %+v; want no offence, 5 orders, 4 payments, 2 refunds pending", bad, led)
	}
	for _, p := range []domain.Payment{late, refunded} {
		if ok, err := l.MarkRefunded(ctx, p.ID, time.Now()); err != nil || !ok {
			t.Fatal(ok, err)
		}
	}
	if led := ledger(); !led.Settled() || len(led.Check()) > 0 {
		t.Errorf("settled sale: %+v", led)
	}

	// Break it: a paid order canceled keeps its pay time and its money; an order
	// marked USED without a payment has no code either.
	move(ids[0], domain.OrderPaid, domain.OrderCanceled, nil)
	move(ids[4], domain.OrderCreated, domain.OrderUsed, nil)
	led = ledger()
	if led.PaidAndCanceled != 1 || led.StrayPayments != 1 || led.PaidWithoutPayment != 1 || led.PaidWithoutCode != 1 {
		t.Errorf("broken sale: %+v; want 1 paid and canceled, 1 stray payment, 1 paid without payment, 1 without code", led)
	}
	if bad := led.Check(); len(bad) != 4 {
		t.Errorf("violations %q, want 4", bad)
	}
}
