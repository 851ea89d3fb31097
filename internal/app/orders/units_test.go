package orders_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/domain"
)

// soldLog records the shops whose sold counts the use cases said moved.
type soldLog struct {
	mu    sync.Mutex
	shops []int64
}

func (s *soldLog) SoldChanged(_ context.Context, shopIDs ...int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.shops = append(s.shops, shopIDs...)
}

// take returns the shops told since the last take.
func (s *soldLog) take() []int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.shops
	s.shops = nil
	return out
}

// An order of several units is redeemed a few units at a time with its one code: it
// stays PAID while units are left and becomes USED (and tells its subscribers) with the
// last; a refund gives back the price of the units not redeemed. The shop's sold count
// moves on the payment and the refund, and its cached copies are told each time.
func TestRedeemUnitByUnitAndRefundTheRest(t *testing.T) {
	ctx := context.Background()
	l := newLifecycle(t, orders.Config{}, owners(9, 70))
	v := l.voucher(t, domain.Voucher{Kind: domain.VoucherNormal, PayValue: 400})
	o, err := l.Buy.Handle(ctx, buyer, v.ID, 3)
	if err != nil {
		t.Fatal(err)
	}
	l.paid(t, buyer, o)
	if got := l.sold.take(); !slices.Equal(got, []int64{9}) || l.store.Sold(9) != 3 {
		t.Errorf("after paying 3 units: sold %d, shops told %v", l.store.Sold(9), got)
	}
	code := l.order(t, o.ID).RedemptionCode
	_, err = l.Redeem.Handle(ctx, merchant, code, 0, nil)
	wantCode(t, "redeeming no unit", err, domain.CodeBadUserInput)
	part, err := l.Redeem.Handle(ctx, merchant, code, 2, nil)
	if err != nil || part.Status != domain.OrderPaid || part.RedeemedQuantity != 2 || part.UnitsLeft() != 1 || part.RedemptionCode != code {
		t.Fatalf("2 of 3 units redeemed: %+v, %v", part, err)
	}
	_, err = l.Redeem.Handle(ctx, merchant, code, 2, nil)
	wantConflict(t, "2 units of the 1 left", err, domain.OrderPaid)
	l.status.want(t, o.ID, "PAID")
	used, err := l.Redeem.Handle(ctx, merchant, code, 1, nil)
	if err != nil || used.Status != domain.OrderUsed || used.Redeemed() != 3 || used.UnitsLeft() != 0 {
		t.Fatalf("the last unit redeemed: %+v, %v", used, err)
	}
	l.status.want(t, o.ID, "PAID", "USED")
	if got := l.sold.take(); len(got) != 0 || l.store.Sold(9) != 3 {
		t.Errorf("redeeming moved sold to %d, shops told %v", l.store.Sold(9), got)
	}

	rest, err := l.Buy.Handle(ctx, buyer, v.ID, 3)
	if err != nil {
		t.Fatal(err)
	}
	p := l.paid(t, buyer, rest)
	l.sold.take()
	if _, err := l.Redeem.Handle(ctx, merchant, l.order(t, rest.ID).RedemptionCode, 1, nil); err != nil {
		t.Fatal(err)
	}
	r, err := l.Refund.Handle(ctx, buyer, rest.ID, "too many")
	if err != nil || r.Status != domain.OrderRefunded || r.Redeemed() != 1 || r.UnitsLeft() != 0 {
		t.Fatalf("refund of 2 units left of 3: %+v, %v", r, err)
	}
	if got := l.payment(t, p.ID); got.Status != domain.PaymentRefunded || got.RefundAmount != 800 || got.Amount != 1200 {
		t.Errorf("payment refunded for 2 of 3 units: %+v, want 800 of 1200 back", got)
	}
	if got := l.sold.take(); !slices.Equal(got, []int64{9}) || l.store.Sold(9) != 3+1 {
		t.Errorf("after the refund: sold %d, want 4; shops told %v", l.store.Sold(9), got)
	}
	l.wantLedger(t, v)
}

// An order's payments are read, in one batch, by its buyer, by the merchant of its shop
// and by an ADMIN; nobody else sees them, and a PENDING order has none.
func TestOrderPaymentsAreShownToWhoSeesTheOrder(t *testing.T) {
	ctx := context.Background()
	l := newLifecycle(t, orders.Config{}, owners(9, 70, 10, 80))
	v := l.voucher(t, domain.Voucher{Kind: domain.VoucherNormal, PayValue: 300})
	o, err := l.Buy.Handle(ctx, buyer, v.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	p := l.paid(t, buyer, o)
	other, err := l.Buy.Handle(ctx, stranger, v.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	pending := domain.VoucherOrder{ID: 424242, UserID: buyer.UserID, ShopID: 9, Status: domain.OrderPending}
	list := []domain.VoucherOrder{o, other, pending}
	for _, c := range []struct {
		name string
		a    domain.Actor
		want []int64 // orders whose payments are shown
	}{
		{"the buyer", buyer, []int64{o.ID}},
		{"the shop's merchant", merchant, []int64{o.ID}},
		{"an admin", domain.Actor{UserID: 1, Role: domain.RoleAdmin}, []int64{o.ID}},
		{"the merchant of another shop", domain.Actor{UserID: 80, Role: domain.RoleMerchant}, nil},
		{"another buyer", domain.Actor{UserID: 99, Role: domain.RoleUser}, nil},
		{"anonymous", domain.Actor{}, nil},
	} {
		got, err := l.OrderPayments.Of(ctx, c.a, list)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var shown []int64
		for id := range got {
			shown = append(shown, id)
		}
		if !slices.Equal(shown, c.want) {
			t.Errorf("%s sees the payments of %v, want %v", c.name, shown, c.want)
		}
		if ps := got[o.ID]; len(c.want) > 0 && (len(ps) != 1 || ps[0].ID != p.ID || ps[0].Status != domain.PaymentSucceeded) {
			t.Errorf("%s: payments of order %d: %+v", c.name, o.ID, ps)
		}
	}
}

// A redemption under a request id redeems once: sent again, or as racing copies, it
// answers the order as it stands; reused with another quantity it is refused; the
// request that took the last unit, sent again, answers the USED order (and tells the
// subscribers once).
func TestRedeemUnderARequestIDRedeemsOnce(t *testing.T) {
	ctx := context.Background()
	l := newLifecycle(t, orders.Config{}, owners(9, 70))
	v := l.voucher(t, domain.Voucher{Kind: domain.VoucherNormal, PayValue: 400})
	o, err := l.Buy.Handle(ctx, buyer, v.ID, 4)
	if err != nil {
		t.Fatal(err)
	}
	l.paid(t, buyer, o)
	code := l.order(t, o.ID).RedemptionCode
	key := func(s string) *string { return &s }
	for _, bad := range []string{"", " k", "k.1", "é", strings.Repeat("k", 65)} {
		_, err := l.Redeem.Handle(ctx, merchant, code, 1, key(bad))
		wantCode(t, "requestId "+bad, err, domain.CodeBadUserInput)
	}
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() {
			if got, err := l.Redeem.Handle(ctx, merchant, code, 1, key("a")); err != nil || got.ID != o.ID || got.RedeemedQuantity != 1 {
				t.Errorf("a copy of request a: %+v, %v", got, err)
			}
		})
	}
	wg.Wait()
	if got, err := l.Redeem.Handle(ctx, merchant, code, 1, key("a")); err != nil || got.RedeemedQuantity != 1 {
		t.Fatalf("request a again: %+v, %v; want 1 unit redeemed", got, err)
	}
	_, err = l.Redeem.Handle(ctx, merchant, code, 2, key("a"))
	wantCode(t, "request a with 2 units", err, domain.CodeBadUserInput)
	if got, err := l.Redeem.Handle(ctx, merchant, code, 3, key("B-2_")); err != nil || got.Status != domain.OrderUsed || got.RedeemedQuantity != 4 {
		t.Fatalf("request B-2_ of the 3 units left: %+v, %v", got, err)
	}
	for _, k := range []string{"B-2_", "a"} {
		q := map[string]int{"a": 1, "B-2_": 3}[k]
		if got, err := l.Redeem.Handle(ctx, merchant, code, q, key(k)); err != nil || got.Status != domain.OrderUsed || got.RedeemedQuantity != 4 {
			t.Errorf("request %s again on the used order: %+v, %v", k, got, err)
		}
	}
	_, err = l.Redeem.Handle(ctx, merchant, code, 1, key("c"))
	wantConflict(t, "a new request on the used order", err, domain.OrderUsed)
	_, err = l.Redeem.Handle(ctx, merchant, code, 1, nil)
	wantConflict(t, "no request id on the used order", err, domain.OrderUsed)
	l.status.want(t, o.ID, "PAID", "USED")
}
