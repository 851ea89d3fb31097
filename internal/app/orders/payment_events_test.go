package orders_test

import (
	"context"
	"testing"

	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/domain"
)

// A payment the provider declines leaves its order CREATED, to be paid again, and tells
// the order's subscribers: an event with the order's status and reason PAYMENT_DECLINED.
// The same word again tells nothing more.
func TestDeclinedPaymentIsTold(t *testing.T) {
	ctx := context.Background()
	l := newLifecycle(t, orders.Config{}, owners(9, 70))
	v := l.voucher(t, domain.Voucher{Kind: domain.VoucherNormal, PayValue: 1013})
	o, err := l.Buy.Handle(ctx, buyer, v.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	p, err := l.Pay.Handle(ctx, buyer, o.ID)
	if err != nil {
		t.Fatal(err)
	}
	declined := orders.Notification{PaymentID: p.ID, ProviderRef: p.ProviderRef, Succeeded: false}
	for range 2 {
		if err := l.Payments.Notify(ctx, declined); err != nil {
			t.Fatal(err)
		}
	}
	if got := l.order(t, o.ID); got.Status != domain.OrderCreated {
		t.Fatalf("order after a declined payment: %+v, want CREATED", got)
	}
	if got := l.payment(t, p.ID); got.Status != domain.PaymentFailed {
		t.Fatalf("declined payment %+v, want FAILED", got)
	}
	l.status.want(t, o.ID, "CREATED/PAYMENT_DECLINED")
	again := l.paid(t, buyer, o)
	if again.ID == p.ID || again.Status != domain.PaymentSucceeded || l.order(t, o.ID).Status != domain.OrderPaid {
		t.Errorf("paying again after a decline: %+v", again)
	}
	l.status.want(t, o.ID, "CREATED/PAYMENT_DECLINED", "PAID")
	l.wantLedger(t, v)
}
