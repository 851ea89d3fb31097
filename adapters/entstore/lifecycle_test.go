package entstore_test

import (
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/domain"
)

func TestLifecycle(t *testing.T) {
	t.Parallel()
	onEveryStore(t, func(t *testing.T, open func(t *testing.T) *entstore.Store) {
		runCases(t, open, []storeCase{
			{"written orders record shop, price and deadline; free ones are paid", testWrittenOrderFields},
			{"cancel returns the unit once; one of racing transitions wins", testTransitionsAndStock},
			{"expire cancels due orders once across concurrent sweeps", testExpireDue},
			{"payment settlement: paid, again, refund due, failed", testSettlePayment},
			{"a canceled order lets its user claim the sale again", testReclaimAfterCancel},
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

func stockOf(t *testing.T, s *entstore.Store, voucherID int64) int64 {
	t.Helper()
	n, err := s.Orders().SaleStock(t.Context(), voucherID)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func testWrittenOrderFields(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	paid := lifecycleSale(t, s, 5, 990)
	free := lifecycleSale(t, s, 5, 0)
	before := time.Now()
	res, err := s.Orders().WriteClaims(ctx, []domain.Claim{
		{OrderID: 11, UserID: 1, VoucherID: paid.ID, ClaimedAt: time.Now()},
		{OrderID: 12, UserID: 1, VoucherID: free.ID, ClaimedAt: time.Now()},
	}, 10*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status[11] != domain.OrderCreated || res.Status[12] != domain.OrderPaid {
		t.Fatalf("statuses %v, want 11 CREATED and 12 PAID", res.Status)
	}
	o, err := s.Lifecycle().Order(ctx, 11)
	if err != nil {
		t.Fatal(err)
	}
	if o.ShopID != paid.ShopID || o.Amount != 990 || o.Kind != domain.VoucherFlashSale || o.Quantity != 1 ||
		o.PayDeadline == nil || o.PayDeadline.Before(before.Add(10*time.Minute-time.Second)) || o.RedemptionCode != "" {
		t.Errorf("written order %+v", o)
	}
	f, err := s.Lifecycle().Order(ctx, 12)
	if err != nil {
		t.Fatal(err)
	}
	if f.Status != domain.OrderPaid || f.PayTime == nil || len(f.RedemptionCode) != domain.RedemptionCodeLen || f.PayDeadline != nil {
		t.Errorf("free order %+v", f)
	}
	if byCode, err := s.Lifecycle().OrderByCode(ctx, f.RedemptionCode); err != nil || byCode.ID != 12 {
		t.Errorf("order by code: %+v, %v", byCode, err)
	}
}

func testTransitionsAndStock(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	v := lifecycleSale(t, s, 3, 500)
	ids := writeClaims(t, s, v, 100, 3, time.Hour)
	if got := stockOf(t, s, v.ID); got != 0 {
		t.Fatalf("stock after 3 orders %d", got)
	}
	// Cancel and pay race on one order, 20 times over: exactly one wins.
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins := map[domain.OrderStatus]int{}
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tr := orders.Transition{OrderID: ids[0], From: []domain.OrderStatus{domain.OrderCreated}, At: time.Now()}
			if i%2 == 0 {
				tr.To, tr.CancelReason, tr.ReturnUnit = domain.OrderCanceled, domain.CancelByBuyer, true
			} else {
				tr.To, tr.RedemptionCode = domain.OrderPaid, domain.NewRedemptionCode()
			}
			_, changed, err := s.Lifecycle().Transition(ctx, tr)
			if err != nil {
				t.Error(err)
				return
			}
			if changed {
				mu.Lock()
				wins[tr.To]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if wins[domain.OrderCanceled]+wins[domain.OrderPaid] != 1 {
		t.Fatalf("wins %v, want exactly one", wins)
	}
	o, err := s.Lifecycle().Order(ctx, ids[0])
	if err != nil {
		t.Fatal(err)
	}
	wantStock := int64(0)
	if o.Status == domain.OrderCanceled {
		wantStock = 1
		if o.CancelReason != domain.CancelByBuyer || o.CanceledAt == nil || o.PayTime != nil {
			t.Errorf("canceled order %+v", o)
		}
	}
	if got := stockOf(t, s, v.ID); got != wantStock {
		t.Errorf("stock %d after the race ended %s, want %d", got, o.Status, wantStock)
	}
	// A refused transition returns the order as it stands and nothing else.
	got, changed, err := s.Lifecycle().Transition(ctx, orders.Transition{OrderID: ids[1], From: []domain.OrderStatus{domain.OrderPaid},
		To: domain.OrderRefunded, At: time.Now(), ReturnUnit: true})
	if err != nil || changed || got.Status != domain.OrderCreated {
		t.Errorf("refund of a CREATED order: %+v changed %v, %v", got, changed, err)
	}
	if got := stockOf(t, s, v.ID); got != wantStock {
		t.Errorf("a refused transition changed the stock to %d", got)
	}
	if _, _, err := s.Lifecycle().Transition(ctx, orders.Transition{OrderID: 999999, From: []domain.OrderStatus{domain.OrderCreated}, To: domain.OrderPaid}); err == nil {
		t.Error("transition of an unknown order: no error")
	}
}

func testExpireDue(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	const n = 300
	v := lifecycleSale(t, s, n, 100)
	writeClaims(t, s, v, 1000, n, time.Millisecond)
	notDue := lifecycleSale(t, s, 1, 100)
	writeClaims(t, s, notDue, 5000, 1, time.Hour)
	time.Sleep(10 * time.Millisecond)
	var wg sync.WaitGroup
	var mu sync.Mutex
	seen := map[int64]int{}
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				got, err := s.Lifecycle().ExpireDue(ctx, time.Now(), 25)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				for _, o := range got {
					seen[o.ID]++
					if o.Status != domain.OrderCanceled || o.CancelReason != domain.CancelTimeout {
						t.Errorf("expired order %+v", o)
					}
				}
				mu.Unlock()
				if len(got) == 0 {
					return
				}
			}
		}()
	}
	wg.Wait()
	if len(seen) != n {
		t.Errorf("expired %d orders, want %d", len(seen), n)
	}
	for id, k := range seen {
		if k != 1 {
			t.Errorf("order %d expired %d times", id, k)
		}
	}
	if got := stockOf(t, s, v.ID); got != n {
		t.Errorf("stock after expiry %d, want %d back", got, n)
	}
	if got := stockOf(t, s, notDue.ID); got != 0 {
		t.Errorf("an order not due was expired (stock %d)", got)
	}
}

func testSettlePayment(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	l := s.Lifecycle()
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
	if o, _ := l.Order(ctx, ids[0]); o.Status != domain.OrderPaid || o.RedemptionCode == "" {
		t.Errorf("paid order %+v", o)
	}
	// Paid after its order was canceled: the money is owed back.
	p2 := pay(ids[1], 9003)
	if _, changed, err := l.Transition(ctx, orders.Transition{OrderID: ids[1], From: []domain.OrderStatus{domain.OrderCreated},
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
	counts, _, err := l.CountByStatus(ctx, v.ID, time.Now().Add(-time.Hour))
	if err != nil || counts[domain.OrderPaid] != 1 || counts[domain.OrderCanceled] != 1 || counts[domain.OrderCreated] != 1 {
		t.Errorf("counts %v, %v", counts, err)
	}
	shopOrders, err := l.OrdersOfShop(ctx, v.ShopID, []domain.OrderStatus{domain.OrderPaid, domain.OrderCanceled}, 0, 10)
	if err != nil || len(shopOrders) != 2 || shopOrders[0].ID < shopOrders[1].ID {
		t.Errorf("shop orders %+v, %v", shopOrders, err)
	}
}

func testReclaimAfterCancel(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	v := lifecycleSale(t, s, 2, 100)
	ids := writeClaims(t, s, v, 300, 1, time.Hour)
	if _, changed, err := s.Lifecycle().Transition(ctx, orders.Transition{OrderID: ids[0], From: []domain.OrderStatus{domain.OrderCreated},
		To: domain.OrderCanceled, CancelReason: domain.CancelByBuyer, At: time.Now(), ReturnUnit: true}); err != nil || !changed {
		t.Fatal(changed, err)
	}
	res, err := s.Orders().WriteClaims(ctx, []domain.Claim{{OrderID: 400, UserID: 1, VoucherID: v.ID, ClaimedAt: time.Now()}}, time.Hour)
	if err != nil || len(res.Created) != 1 {
		t.Fatalf("second claim after a cancel: %+v, %v", res, err)
	}
	holders, err := s.Orders().LiveHolders(ctx, v.ID, false)
	if err != nil || len(holders) != 1 {
		t.Errorf("holders %v, %v", holders, err)
	}
	c, err := s.Orders().CountOrders(ctx, v.ID)
	if err != nil || c.Created != 1 || c.Released != 1 || c.LiveUsers != 1 {
		t.Errorf("counts %+v, %v", c, err)
	}
}

func testLedger(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	l := s.Lifecycle()
	v := lifecycleSale(t, s, 6, 990)
	ids := writeClaims(t, s, v, 400, 5, time.Hour)
	move := func(id int64, from, to domain.OrderStatus, m *orders.PaymentMove) {
		t.Helper()
		if _, changed, err := l.Transition(ctx, orders.Transition{OrderID: id, From: []domain.OrderStatus{from}, To: to,
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
