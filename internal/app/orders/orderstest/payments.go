package orderstest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/contracttest"
	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/domain"
)

// PaymentStore is a payment store, the ledger over it, and the order store its
// payments' orders are in (the one a settlement pays through).
type PaymentStore struct {
	Store
	Payments orders.PaymentStore
	Ledger   orders.LedgerReader
}

// PaymentStoreContract is what every orders.PaymentStore (and orders.LedgerReader) must
// do, as their doc comments say. newStore returns a store of the case's own: RefundsDue
// lists every payment owed back, so cases must not share payments.
func PaymentStoreContract(t *testing.T, newStore func(t *testing.T) PaymentStore) {
	t.Helper()
	contracttest.RunCases(t, newStore,
		contracttest.Case[PaymentStore]{Name: "payment settlement: paid, again, refund due, failed", Run: paymentsSettle},
		contracttest.Case[PaymentStore]{Name: "the ledger counts what breaks I6 and I7", Run: paymentsLedger},
		contracttest.Case[PaymentStore]{Name: "payments are read back by id and by order; unknown ones are not found", Run: paymentsRead},
		contracttest.Case[PaymentStore]{Name: "a transition moves its payment only when the order's move wins", Run: paymentsMoveWithOrder},
		contracttest.Case[PaymentStore]{Name: "payments of many orders, open payments, decline reasons and refund amounts", Run: paymentsDetails},
	)
}

// open creates a PENDING payment of amount for order o and checks it is new.
func (s PaymentStore) open(t *testing.T, o domain.Claim, amount int64) domain.Payment {
	t.Helper()
	p, created, err := s.Payments.CreatePayment(context.Background(), domain.Payment{ID: newID(), OrderID: o.OrderID, UserID: o.UserID,
		Amount: amount, Provider: "sim"})
	if err != nil || !created || p.Status != domain.PaymentPending {
		t.Fatalf("create payment of order %d: %+v created %v, %v", o.OrderID, p, created, err)
	}
	return p
}

func paymentsSettle(t *testing.T, s PaymentStore) {
	ctx := context.Background()
	l, o := s.Payments, s.Orders
	v := s.pricedSale(t, 3, 700)
	cs := s.writeUsers(t, v, 3, time.Hour)
	p := s.open(t, cs[0], 700)
	if again, created, err := l.CreatePayment(ctx, domain.Payment{ID: newID(), OrderID: cs[0].OrderID, UserID: cs[0].UserID, Amount: 700}); err != nil || created || again.ID != p.ID {
		t.Errorf("second open payment: %+v created %v, %v; want the first back", again, created, err)
	}
	outcomes := map[orders.SettleOutcome]int{}
	for range 10 {
		st, err := l.SettlePayment(ctx, p.ID, true, time.Now(), domain.NewRedemptionCode(), "")
		if err != nil {
			t.Fatal(err)
		}
		outcomes[st.Outcome]++
	}
	if outcomes[orders.SettledPaid] != 1 || outcomes[orders.SettledAgain] != 9 {
		t.Errorf("ten notifications: %v", outcomes)
	}
	if o, _ := o.Order(ctx, cs[0].OrderID); o.Status != domain.OrderPaid || o.RedemptionCode == "" {
		t.Errorf("paid order %+v", o)
	}
	// Paid after its order was canceled: the money is owed back.
	p2 := s.open(t, cs[1], 700)
	if _, changed, err := o.Transition(ctx, orders.Transition{OrderID: cs[1].OrderID, From: []domain.OrderStatus{domain.OrderCreated},
		To: domain.OrderCanceled, CancelReason: domain.CancelTimeout, At: time.Now(), ReturnUnit: true}); err != nil || !changed {
		t.Fatal(changed, err)
	}
	st, err := l.SettlePayment(ctx, p2.ID, true, time.Now(), domain.NewRedemptionCode(), "")
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
	p3 := s.open(t, cs[2], 700)
	if st, err := l.SettlePayment(ctx, p3.ID, false, time.Now(), "", ""); err != nil || st.Outcome != orders.SettledFailed || st.Order.Status != domain.OrderCreated {
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

func paymentsLedger(t *testing.T, s PaymentStore) {
	ctx := context.Background()
	l, o := s.Payments, s.Orders
	v := s.pricedSale(t, 6, 990)
	cs := s.writeUsers(t, v, 5, time.Hour)
	move := func(i int, from, to domain.OrderStatus, m *orders.PaymentMove) {
		t.Helper()
		if _, changed, err := o.Transition(ctx, orders.Transition{OrderID: cs[i].OrderID, From: []domain.OrderStatus{from}, To: to,
			At: time.Now(), CancelReason: domain.CancelByBuyer, ReturnUnit: true, Payment: m}); err != nil || !changed {
			t.Fatalf("order %d %s → %s: changed %v, %v", cs[i].OrderID, from, to, changed, err)
		}
	}
	pay := func(i int, succeeded bool) domain.Payment {
		t.Helper()
		p, _, err := l.CreatePayment(ctx, domain.Payment{ID: newID(), OrderID: cs[i].OrderID, UserID: cs[i].UserID, Amount: 990, Provider: "sim"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.SettlePayment(ctx, p.ID, succeeded, time.Now(), domain.NewRedemptionCode(), ""); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ledger := func() orders.Ledger {
		t.Helper()
		led, err := s.Ledger.Ledger(ctx, v.ID)
		if err != nil {
			t.Fatal(err)
		}
		return led
	}
	pay(0, true)                                     // PAID
	pay(1, true)                                     // PAID, then USED
	move(1, domain.OrderPaid, domain.OrderUsed, nil) //
	move(2, domain.OrderCreated, domain.OrderCanceled, nil)
	late := pay(2, true) // succeeded after the cancel: owed back
	refunded := pay(3, true)
	move(3, domain.OrderPaid, domain.OrderRefunded, &orders.PaymentMove{PaymentID: refunded.ID,
		From: []domain.PaymentStatus{domain.PaymentSucceeded}, To: domain.PaymentRefundPending})
	// cs[4] stays CREATED.
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
	move(0, domain.OrderPaid, domain.OrderCanceled, nil)
	move(4, domain.OrderCreated, domain.OrderUsed, nil)
	led = ledger()
	if led.PaidAndCanceled != 1 || led.StrayPayments != 1 || led.PaidWithoutPayment != 1 || led.PaidWithoutCode != 1 {
		t.Errorf("broken sale: %+v; want 1 paid and canceled, 1 stray payment, 1 paid without payment, 1 without code", led)
	}
	if bad := led.Check(); len(bad) != 4 {
		t.Errorf("violations %q, want 4", bad)
	}
}

func paymentsRead(t *testing.T, s PaymentStore) {
	ctx := context.Background()
	l := s.Payments
	cs := s.writeUsers(t, s.pricedSale(t, 2, 300), 2, time.Hour)
	first := s.open(t, cs[0], 300)
	if err := l.SetProviderRef(ctx, first.ID, "sim-1"); err != nil {
		t.Fatal(err)
	}
	got, err := l.Payment(ctx, first.ID)
	if err != nil || got.ID != first.ID || got.OrderID != cs[0].OrderID || got.UserID != cs[0].UserID || got.Amount != 300 ||
		got.Status != domain.PaymentPending || got.Provider != "sim" || got.ProviderRef != "sim-1" || got.CreatedAt.IsZero() || got.PaidAt != nil {
		t.Fatalf("payment read back: %+v, %v", got, err)
	}
	// Once settled, the order's next payment is a new one; both are listed, oldest first.
	if st, err := l.SettlePayment(ctx, first.ID, false, time.Now(), "", ""); err != nil || st.Outcome != orders.SettledFailed || st.Payment.Status != domain.PaymentFailed {
		t.Fatalf("failed payment: %+v, %v", st, err)
	}
	second := s.open(t, cs[0], 300)
	s.open(t, cs[1], 300) // another order's
	if ps, err := l.PaymentsOfOrder(ctx, cs[0].OrderID); err != nil || len(ps) != 2 || ps[0].ID != first.ID || ps[1].ID != second.ID ||
		ps[0].Status != domain.PaymentFailed || ps[1].Status != domain.PaymentPending {
		t.Errorf("payments of order %d: %+v, %v; want %d FAILED then %d PENDING", cs[0].OrderID, ps, err, first.ID, second.ID)
	}
	if ps, err := l.PaymentsOfOrder(ctx, newID()); err != nil || len(ps) != 0 {
		t.Errorf("payments of an unknown order: %+v, %v", ps, err)
	}
	if st, err := l.SettlePayment(ctx, second.ID, true, time.Now(), domain.NewRedemptionCode(), ""); err != nil || st.Outcome != orders.SettledPaid ||
		st.Payment.Status != domain.PaymentSucceeded || st.Payment.PaidAt == nil || st.Order.Status != domain.OrderPaid || len(st.Order.RedemptionCode) != domain.RedemptionCodeLen {
		t.Errorf("succeeded payment: %+v, %v", st, err)
	}
	unknown := newID()
	if _, err := l.Payment(ctx, unknown); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("unknown payment: %v, want domain.ErrNotFound", err)
	}
	if _, err := l.SettlePayment(ctx, unknown, true, time.Now(), domain.NewRedemptionCode(), ""); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("settling an unknown payment: %v, want domain.ErrNotFound", err)
	}
	if ok, err := l.MarkRefunded(ctx, second.ID, time.Now()); err != nil || ok {
		t.Errorf("mark a SUCCEEDED payment refunded: %v, %v; want false", ok, err)
	}
	if due, err := l.RefundsDue(ctx, 10); err != nil || len(due) != 0 {
		t.Errorf("refunds due with none owed: %+v, %v", due, err)
	}
}

func paymentsMoveWithOrder(t *testing.T, s PaymentStore) {
	ctx := context.Background()
	cs := s.writeUsers(t, s.pricedSale(t, 1, 400), 1, time.Hour)
	p := s.open(t, cs[0], 400)
	if st, err := s.Payments.SettlePayment(ctx, p.ID, true, time.Now(), domain.NewRedemptionCode(), ""); err != nil || st.Outcome != orders.SettledPaid {
		t.Fatalf("settle: %+v, %v", st, err)
	}
	refund := func(from domain.OrderStatus) bool {
		t.Helper()
		tr := orders.Move(domain.OrderRefund, cs[0].OrderID, time.Now())
		tr.From, tr.RefundReason = []domain.OrderStatus{from}, "changed my mind"
		tr.Payment = &orders.PaymentMove{PaymentID: p.ID, From: []domain.PaymentStatus{domain.PaymentSucceeded},
			To: domain.PaymentRefundPending, Reason: "changed my mind"}
		_, changed, err := s.Orders.Transition(ctx, tr)
		if err != nil {
			t.Fatal(err)
		}
		return changed
	}
	// A refund from a status the order is not in loses, and its payment stays.
	if refund(domain.OrderUsed) {
		t.Fatal("a refund from USED moved a PAID order")
	}
	if got, err := s.Payments.Payment(ctx, p.ID); err != nil || got.Status != domain.PaymentSucceeded || got.RefundReason != "" {
		t.Fatalf("payment after a refused refund: %+v, %v; want it SUCCEEDED", got, err)
	}
	if !refund(domain.OrderPaid) {
		t.Fatal("the refund of a PAID order did not win")
	}
	if got, err := s.Payments.Payment(ctx, p.ID); err != nil || got.Status != domain.PaymentRefundPending || got.RefundReason != "changed my mind" {
		t.Fatalf("payment after the refund: %+v, %v; want REFUND_PENDING with the reason", got, err)
	}
	if due, err := s.Payments.RefundsDue(ctx, 10); err != nil || len(due) != 1 || due[0].ID != p.ID {
		t.Errorf("refunds due %+v, %v", due, err)
	}
}

func paymentsDetails(t *testing.T, s PaymentStore) {
	ctx := context.Background()
	l := s.Payments
	cs := s.writeUsers(t, s.pricedSale(t, 3, 600), 3, time.Hour)
	declined := s.open(t, cs[0], 600)
	st, err := l.SettlePayment(ctx, declined.ID, false, time.Now(), "", "card declined")
	if err != nil || st.Outcome != orders.SettledFailed || st.Payment.FailReason != "card declined" || st.Order.Status != domain.OrderCreated {
		t.Fatalf("declined payment: %+v, %v", st, err)
	}
	open := func(id int64, want bool) {
		t.Helper()
		if got, err := l.OpenPayment(ctx, id); err != nil || got != want {
			t.Errorf("open payment of order %d: %v, %v; want %v", id, got, err, want)
		}
	}
	open(cs[0].OrderID, false)
	late := s.open(t, cs[0], 600)
	open(cs[0].OrderID, true)
	cancel := orders.Move(domain.OrderCancel, cs[0].OrderID, time.Now())
	cancel.CancelReason = domain.CancelByBuyer
	if _, changed, err := s.Orders.Transition(ctx, cancel); err != nil || !changed {
		t.Fatal(changed, err)
	}
	st, err = l.SettlePayment(ctx, late.ID, true, time.Now(), domain.NewRedemptionCode(), "")
	if err != nil || st.Outcome != orders.SettledRefundDue || st.Payment.RefundAmount != 600 || st.Payment.RefundReason == "" {
		t.Fatalf("a payment after the cancel: %+v, %v; want its 600 due back", st, err)
	}
	open(cs[0].OrderID, true)
	if ok, err := l.MarkRefunded(ctx, late.ID, time.Now()); err != nil || !ok {
		t.Fatal(ok, err)
	}
	open(cs[0].OrderID, false)

	paid := s.open(t, cs[1], 600)
	if _, err := l.SettlePayment(ctx, paid.ID, true, time.Now(), domain.NewRedemptionCode(), ""); err != nil {
		t.Fatal(err)
	}
	refund := orders.Move(domain.OrderRefund, cs[1].OrderID, time.Now())
	refund.Payment = &orders.PaymentMove{PaymentID: paid.ID, From: []domain.PaymentStatus{domain.PaymentSucceeded},
		To: domain.PaymentRefundPending, Reason: "plans changed", Refund: true}
	if _, changed, err := s.Orders.Transition(ctx, refund); err != nil || !changed {
		t.Fatal(changed, err)
	}
	if got, err := l.Payment(ctx, paid.ID); err != nil || got.Status != domain.PaymentRefundPending || got.RefundAmount != 600 {
		t.Errorf("refunded payment %+v, %v; want 600 due back", got, err)
	}

	byOrder, err := l.PaymentsOfOrders(ctx, []int64{cs[0].OrderID, cs[1].OrderID, cs[2].OrderID, newID()})
	if err != nil || len(byOrder) != 2 || len(byOrder[cs[0].OrderID]) != 2 || len(byOrder[cs[1].OrderID]) != 1 {
		t.Fatalf("payments of 4 orders: %+v, %v; want 2 of the first, 1 of the second", byOrder, err)
	}
	first := byOrder[cs[0].OrderID]
	if first[0].ID != declined.ID || first[0].Status != domain.PaymentFailed || first[0].FailReason != "card declined" ||
		first[1].ID != late.ID || first[1].Status != domain.PaymentRefunded || first[1].RefundAmount != 600 {
		t.Errorf("payments of order %d: %+v", cs[0].OrderID, first)
	}
}
