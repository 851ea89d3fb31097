package orderstest

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/domain"
)

// writeUsers writes one claim of sale v per new user and checks they are created; it
// returns the claims.
func (s Store) writeUsers(t *testing.T, v domain.Voucher, users int, payWithin time.Duration) []domain.Claim {
	t.Helper()
	claims := make([]domain.Claim, users)
	for i := range claims {
		claims[i] = domain.Claim{OrderID: newID(), UserID: newID(), VoucherID: v.ID, ClaimedAt: time.Now()}
	}
	res, err := s.Orders.WriteClaims(context.Background(), claims, payWithin)
	if err != nil || len(res.Created) != users {
		t.Fatalf("write %d claims: created %d, %v", users, len(res.Created), err)
	}
	return claims
}

func (s Store) stockOf(t *testing.T, v domain.Voucher) int64 {
	t.Helper()
	n, err := s.Orders.SaleStock(context.Background(), v.ID)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func (s Store) order(t *testing.T, id int64) domain.VoucherOrder {
	t.Helper()
	o, err := s.Orders.Order(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func ordersWrittenFields(t *testing.T, s Store) {
	ctx := context.Background()
	paid := s.pricedSale(t, 5, 990)
	free := s.pricedSale(t, 5, 0)
	user := newID()
	priced, gift := claim(paid, user), claim(free, user)
	before := time.Now()
	res, err := s.Orders.WriteClaims(ctx, []domain.Claim{priced, gift}, 10*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status[priced.OrderID] != domain.OrderCreated || res.Status[gift.OrderID] != domain.OrderPaid {
		t.Fatalf("statuses %v, want %d CREATED and %d PAID", res.Status, priced.OrderID, gift.OrderID)
	}
	o := s.order(t, priced.OrderID)
	if o.ShopID != paid.ShopID || o.Amount != 990 || o.Kind != domain.VoucherFlashSale || o.Quantity != 1 ||
		o.PayDeadline == nil || o.PayDeadline.Before(before.Add(10*time.Minute-time.Second)) || o.RedemptionCode != "" {
		t.Errorf("written order %+v", o)
	}
	f := s.order(t, gift.OrderID)
	if f.Status != domain.OrderPaid || f.PayTime == nil || len(f.RedemptionCode) != domain.RedemptionCodeLen || f.PayDeadline != nil {
		t.Errorf("free order %+v", f)
	}
	if byCode, err := s.Orders.OrderByCode(ctx, f.RedemptionCode); err != nil || byCode.ID != gift.OrderID {
		t.Errorf("order by code: %+v, %v", byCode, err)
	}
	if _, err := s.Orders.OrderByCode(ctx, "0000NOSUCH00"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("order by an unknown code: %v, want domain.ErrNotFound", err)
	}
}

func ordersDeadlineFromClaim(t *testing.T, s Store) {
	v := s.pricedSale(t, 5, 990)
	claimedAt := time.Now().Add(-3 * time.Second).Truncate(time.Second).Add(1500*time.Microsecond + 7)
	c := domain.Claim{OrderID: newID(), UserID: newID(), VoucherID: v.ID, ClaimedAt: claimedAt}
	if res, err := s.Orders.WriteClaims(context.Background(), []domain.Claim{c}, 10*time.Minute); err != nil || len(res.Created) != 1 {
		t.Fatalf("write claim: %+v, %v", res, err)
	}
	want := claimedAt.Truncate(time.Millisecond).Add(10 * time.Minute)
	if o := s.order(t, c.OrderID); o.PayDeadline == nil || !o.PayDeadline.Equal(want) {
		t.Fatalf("order claimed at %v: pay deadline %v, want %v", claimedAt, o.PayDeadline, want)
	}
}

// normalOrder stores a CREATED order of quantity units of a new normal voucher at
// payValue each.
func (s Store) normalOrder(t *testing.T, quantity int, payValue int64) domain.VoucherOrder {
	t.Helper()
	v := s.Voucher(t, domain.Voucher{Title: "set menu", PayValue: payValue, ActualValue: payValue + 100, Kind: domain.VoucherNormal,
		Status: domain.VoucherOnSale})
	deadline := time.Now().Add(time.Hour)
	o, err := s.Orders.CreateOrder(context.Background(), domain.VoucherOrder{ID: newID(), UserID: newID(), VoucherID: v.ID, ShopID: v.ShopID,
		Kind: domain.VoucherNormal, Quantity: quantity, Amount: payValue * int64(quantity), Status: domain.OrderCreated, PayDeadline: &deadline})
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// move applies action a (with units, for a redemption) to order id and checks whether
// it did.
func (s Store) move(t *testing.T, a domain.OrderAction, id int64, units int, want bool) domain.VoucherOrder {
	t.Helper()
	tr := orders.Move(a, id, time.Now())
	tr.RedemptionCode, tr.RefundReason, tr.Units = domain.NewRedemptionCode(), "changed my mind", units
	got, changed, err := s.Orders.Transition(context.Background(), tr)
	if err != nil || changed != want {
		t.Fatalf("%s %d units of order %d: %+v changed %v, %v; want changed %v", a, units, id, got, changed, err, want)
	}
	return got
}

func ordersRedeemUnits(t *testing.T, s Store) {
	o := s.normalOrder(t, 3, 500)
	s.move(t, domain.OrderPay, o.ID, 0, true)
	if got := s.move(t, domain.OrderRedeem, o.ID, 2, true); got.Status != domain.OrderPaid || got.RedeemedQuantity != 2 || got.UseTime == nil {
		t.Errorf("2 of 3 units redeemed: %+v, want PAID with 2 redeemed", got)
	}
	if got := s.move(t, domain.OrderRedeem, o.ID, 2, false); got.Status != domain.OrderPaid || got.RedeemedQuantity != 2 {
		t.Errorf("2 more units of the 1 left: %+v, want it as it was", got)
	}
	if got := s.move(t, domain.OrderRedeem, o.ID, 1, true); got.Status != domain.OrderUsed || got.RedeemedQuantity != 3 {
		t.Errorf("the last unit redeemed: %+v, want USED with 3 redeemed", got)
	}
	s.move(t, domain.OrderRedeem, o.ID, 1, false)
	// Units 0 redeems every unit left.
	whole := s.normalOrder(t, 2, 500)
	s.move(t, domain.OrderPay, whole.ID, 0, true)
	if got := s.move(t, domain.OrderRedeem, whole.ID, 0, true); got.Status != domain.OrderUsed || got.RedeemedQuantity != 2 {
		t.Errorf("every unit redeemed: %+v", got)
	}
	// A refund takes the units not redeemed.
	part := s.normalOrder(t, 3, 500)
	s.move(t, domain.OrderPay, part.ID, 0, true)
	s.move(t, domain.OrderRedeem, part.ID, 1, true)
	if got := s.move(t, domain.OrderRefund, part.ID, 0, true); got.Status != domain.OrderRefunded || got.RedeemedQuantity != 1 ||
		got.UnitsLeft() != 0 || got.RefundAmount() != 1000 {
		t.Errorf("refund of 2 units left of 3: %+v", got)
	}
}

func ordersRedeemRequests(t *testing.T, s Store) {
	ctx := context.Background()
	o := s.normalOrder(t, 4, 500)
	s.move(t, domain.OrderPay, o.ID, 0, true)
	redeem := func(requestID string, units int) orders.Transition {
		tr := orders.Move(domain.OrderRedeem, o.ID, time.Now())
		tr.Units, tr.RequestID = units, requestID
		return tr
	}
	// wantBefore checks that tr did nothing, the order having recorded its request with
	// units, and returns the order as it stands.
	wantBefore := func(what string, tr orders.Transition, units int) domain.VoucherOrder {
		t.Helper()
		got, changed, err := s.Orders.Transition(ctx, tr)
		var before *orders.RedeemedBefore
		if !errors.As(err, &before) || changed || before.Units != units || before.Order.ID != tr.OrderID {
			t.Fatalf("%s: %+v changed %v, %v; want *RedeemedBefore of %d units", what, got, changed, err, units)
		}
		return before.Order
	}
	// Copies of one request racing: exactly one redeems, the others are told it did.
	var wg sync.WaitGroup
	var won, told atomic.Int32
	for range 16 {
		wg.Go(func() {
			got, changed, err := s.Orders.Transition(ctx, redeem("first", 1))
			var before *orders.RedeemedBefore
			switch {
			case errors.As(err, &before):
				if before.Units != 1 || before.Order.RedeemedQuantity != 1 {
					t.Errorf("a copy of the request told %+v", before)
				}
				told.Add(1)
			case err != nil:
				t.Error(err)
			case !changed || got.RedeemedQuantity != 1:
				t.Errorf("a copy of the request: %+v changed %v", got, changed)
			default:
				won.Add(1)
			}
		})
	}
	wg.Wait()
	if got := s.order(t, o.ID); won.Load() != 1 || told.Load() != 15 || got.RedeemedQuantity != 1 || got.Status != domain.OrderPaid {
		t.Fatalf("16 copies of one request: %d redeemed, %d told; order %+v; want 1 unit redeemed once", won.Load(), told.Load(), got)
	}
	// The same key does nothing again, whatever its units; another key redeems.
	if got := wantBefore("the request again with 2 units", redeem("first", 2), 1); got.RedeemedQuantity != 1 {
		t.Errorf("the order as it stands: %+v", got)
	}
	if got, changed, err := s.Orders.Transition(ctx, redeem("second", 2)); err != nil || !changed || got.RedeemedQuantity != 3 {
		t.Fatalf("another request of 2 units: %+v changed %v, %v; want 3 redeemed", got, changed, err)
	}
	// A request the order refuses (too many units) keeps no key.
	if got, changed, err := s.Orders.Transition(ctx, redeem("third", 2)); err != nil || changed || got.RedeemedQuantity != 3 {
		t.Errorf("2 units of the 1 left: %+v changed %v, %v; want nothing done", got, changed, err)
	}
	if got, changed, err := s.Orders.Transition(ctx, redeem("third", 1)); err != nil || !changed || got.Status != domain.OrderUsed {
		t.Fatalf("the last unit under the refused request's key: %+v changed %v, %v; want USED", got, changed, err)
	}
	// Once the order is USED, its requests are still answered; a new one is refused.
	if got := wantBefore("the last unit's request again", redeem("third", 1), 1); got.Status != domain.OrderUsed || got.RedeemedQuantity != 4 {
		t.Errorf("the order as it stands: %+v", got)
	}
	wantBefore("the second request again", redeem("second", 2), 2)
	if got, changed, err := s.Orders.Transition(ctx, redeem("fourth", 1)); err != nil || changed || got.Status != domain.OrderUsed {
		t.Errorf("a new request on the used order: %+v changed %v, %v; want nothing done", got, changed, err)
	}
	// A key is the order's: another order's request under it redeems there.
	other := s.normalOrder(t, 2, 500)
	s.move(t, domain.OrderPay, other.ID, 0, true)
	tr := redeem("first", 1)
	tr.OrderID = other.ID
	if got, changed, err := s.Orders.Transition(ctx, tr); err != nil || !changed || got.RedeemedQuantity != 1 {
		t.Errorf("another order under a used key: %+v changed %v, %v", got, changed, err)
	}
}

func ordersSold(t *testing.T, s Store) {
	ctx := context.Background()
	o := s.normalOrder(t, 3, 700)
	shop := o.ShopID
	wantSold := func(what string, want int64) {
		t.Helper()
		if got := s.Sold(t, shop); got != want {
			t.Errorf("%s: sold %d, want %d", what, got, want)
		}
	}
	wantSold("an order waiting for payment", 0)
	s.move(t, domain.OrderPay, o.ID, 0, true)
	s.move(t, domain.OrderPay, o.ID, 0, false)
	wantSold("3 units paid (once however often)", 3)
	s.move(t, domain.OrderRedeem, o.ID, 1, true)
	wantSold("a unit redeemed", 3)
	s.move(t, domain.OrderRefund, o.ID, 0, true)
	s.move(t, domain.OrderRefund, o.ID, 0, false)
	wantSold("refunded with 1 unit redeemed", 1)
	canceled := s.normalOrder(t, 2, 700)
	cancel := orders.Move(domain.OrderCancel, canceled.ID, time.Now())
	cancel.CancelReason = domain.CancelByBuyer
	if _, changed, err := s.Orders.Transition(ctx, cancel); err != nil || !changed {
		t.Fatal(changed, err)
	}
	wantSold("an unpaid order canceled", 1)
	// Bought free: PAID and sold as it is stored.
	free := s.Voucher(t, domain.Voucher{Title: "free", Kind: domain.VoucherNormal, Status: domain.VoucherOnSale, ActualValue: 100})
	now := time.Now()
	if _, err := s.Orders.CreateOrder(ctx, domain.VoucherOrder{ID: newID(), UserID: newID(), VoucherID: free.ID, ShopID: free.ShopID,
		Kind: domain.VoucherNormal, Quantity: 2, Status: domain.OrderPaid, PayTime: &now, RedemptionCode: domain.NewRedemptionCode()}); err != nil {
		t.Fatal(err)
	}
	wantSold("2 free units bought", 3)
	// Claims of a free flash sale: sold as they are written, once however often.
	gift := s.pricedSale(t, 5, 0)
	c := claim(gift, newID())
	for range 2 {
		s.write(t, c, claim(gift, newID()))
	}
	wantSold("free claims written, one of them twice", 6)
	if shop != gift.ShopID || shop != free.ShopID {
		t.Fatalf("the case's vouchers are of shops %d, %d, %d; want one", shop, free.ShopID, gift.ShopID)
	}
}

func ordersCreate(t *testing.T, s Store) {
	ctx := context.Background()
	v := s.sale(t, 5)
	user, other := newID(), newID()
	first := domain.VoucherOrder{ID: newID(), UserID: user, VoucherID: v.ID, Status: domain.OrderCreated}
	if _, err := s.Orders.CreateOrder(ctx, first); err != nil {
		t.Fatal(err)
	}
	dup := domain.VoucherOrder{ID: newID(), UserID: user, VoucherID: v.ID, Status: domain.OrderCreated}
	if _, err := s.Orders.CreateOrder(ctx, dup); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("same user and voucher: err = %v, want CONFLICT", err)
	}
	if _, err := s.Orders.CreateOrder(ctx, domain.VoucherOrder{ID: newID(), UserID: other, VoucherID: v.ID, Status: domain.OrderCreated}); err != nil {
		t.Fatalf("another user: %v", err)
	}
	otherVoucher := domain.VoucherOrder{ID: newID(), UserID: user, VoucherID: s.sale(t, 1).ID}
	if _, err := s.Orders.CreateOrder(ctx, otherVoucher); err != nil {
		t.Fatalf("another voucher: %v", err)
	}
	if _, err := s.Orders.CreateOrder(ctx, domain.VoucherOrder{ID: first.ID, UserID: newID(), VoucherID: v.ID}); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("reused id: err = %v, want CONFLICT", err)
	}
	got := s.order(t, first.ID)
	if got.ID != first.ID || got.UserID != user || got.VoucherID != v.ID || got.Status != domain.OrderCreated ||
		got.CreatedAt.IsZero() || got.PayTime != nil || got.UseTime != nil || got.RefundTime != nil {
		t.Fatalf("order = %+v", got)
	}
	if got := s.order(t, otherVoucher.ID); got.Status != domain.OrderCreated {
		t.Fatalf("default status: %+v", got)
	}
	if _, err := s.Orders.Order(ctx, dup.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("rejected order: err = %v, want NOT_FOUND", err)
	}
	// A purchase of a normal voucher is stored as given; one buyer may buy it again.
	normal := s.Voucher(t, domain.Voucher{Title: "normal", PayValue: 0, ActualValue: 2, Kind: domain.VoucherNormal, Status: domain.VoucherOnSale})
	paid := time.Now().Add(-time.Minute).Truncate(time.Microsecond)
	for range 2 {
		bought := domain.VoucherOrder{ID: newID(), UserID: user, VoucherID: normal.ID, ShopID: normal.ShopID, Kind: domain.VoucherNormal,
			Quantity: 3, Status: domain.OrderPaid, PayTime: &paid, RedemptionCode: domain.NewRedemptionCode()}
		stored, err := s.Orders.CreateOrder(ctx, bought)
		if err != nil || stored.ID != bought.ID || stored.Kind != domain.VoucherNormal || stored.Quantity != 3 || stored.ShopID != normal.ShopID ||
			stored.Status != domain.OrderPaid || stored.PayTime == nil || !stored.PayTime.Equal(paid) || stored.RedemptionCode != bought.RedemptionCode {
			t.Fatalf("purchase %+v stored as %+v, %v", bought, stored, err)
		}
	}
	if _, err := s.Orders.CreateOrder(ctx, domain.VoucherOrder{ID: newID(), UserID: newID(), VoucherID: v.ID, Status: "LOST"}); !errors.Is(err, domain.ErrBadInput) {
		t.Fatalf("unknown status: err = %v, want BAD_USER_INPUT", err)
	}
	if _, err := s.Orders.CreateOrder(ctx, domain.VoucherOrder{UserID: newID(), VoucherID: v.ID}); !errors.Is(err, domain.ErrBadInput) {
		t.Fatalf("no id: err = %v, want BAD_USER_INPUT", err)
	}
}

func ordersTransitions(t *testing.T, s Store) {
	ctx := context.Background()
	v := s.pricedSale(t, 3, 500)
	cs := s.writeUsers(t, v, 3, time.Hour)
	if got := s.stockOf(t, v); got != 0 {
		t.Fatalf("stock after 3 orders %d", got)
	}
	// Cancel and pay race on one order, 20 times over: exactly one wins.
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins := map[domain.OrderStatus]int{}
	for i := range 20 {
		wg.Go(func() {
			tr := orders.Move(domain.OrderPay, cs[0].OrderID, time.Now())
			tr.RedemptionCode = domain.NewRedemptionCode()
			if i%2 == 0 {
				tr = orders.Move(domain.OrderCancel, cs[0].OrderID, time.Now())
				tr.CancelReason = domain.CancelByBuyer
			}
			_, changed, err := s.Orders.Transition(ctx, tr)
			if err != nil {
				t.Error(err)
				return
			}
			if changed {
				mu.Lock()
				wins[tr.To]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if wins[domain.OrderCanceled]+wins[domain.OrderPaid] != 1 {
		t.Fatalf("wins %v, want exactly one", wins)
	}
	o := s.order(t, cs[0].OrderID)
	wantStock := int64(0)
	if o.Status == domain.OrderCanceled {
		wantStock = 1
		if o.CancelReason != domain.CancelByBuyer || o.CanceledAt == nil || o.PayTime != nil {
			t.Errorf("canceled order %+v", o)
		}
	} else if o.PayTime == nil || len(o.RedemptionCode) != domain.RedemptionCodeLen {
		t.Errorf("paid order %+v", o)
	}
	if got := s.stockOf(t, v); got != wantStock {
		t.Errorf("stock %d after the race ended %s, want %d", got, o.Status, wantStock)
	}
	// A refused transition returns the order as it stands and nothing else.
	got, changed, err := s.Orders.Transition(ctx, orders.Move(domain.OrderRefund, cs[1].OrderID, time.Now()))
	if err != nil || changed || got.Status != domain.OrderCreated {
		t.Errorf("refund of a CREATED order: %+v changed %v, %v", got, changed, err)
	}
	if got := s.stockOf(t, v); got != wantStock {
		t.Errorf("a refused transition changed the stock to %d", got)
	}
	// Paid, redeemed, and then never refunded; paid and refunded, the unit back once.
	step := func(a domain.OrderAction, id int64, want bool) domain.VoucherOrder {
		t.Helper()
		tr := orders.Move(a, id, time.Now())
		tr.RedemptionCode, tr.RefundReason = domain.NewRedemptionCode(), "changed my mind"
		got, changed, err := s.Orders.Transition(ctx, tr)
		if err != nil || changed != want {
			t.Fatalf("%s order %d: %+v changed %v, %v; want changed %v", a, id, got, changed, err, want)
		}
		return got
	}
	step(domain.OrderPay, cs[1].OrderID, true)
	if used := step(domain.OrderRedeem, cs[1].OrderID, true); used.Status != domain.OrderUsed || used.UseTime == nil {
		t.Errorf("redeemed order %+v", used)
	}
	step(domain.OrderRefund, cs[1].OrderID, false)
	step(domain.OrderPay, cs[2].OrderID, true)
	if r := step(domain.OrderRefund, cs[2].OrderID, true); r.Status != domain.OrderRefunded || r.RefundTime == nil || r.RefundReason != "changed my mind" {
		t.Errorf("refunded order %+v", r)
	}
	step(domain.OrderRefund, cs[2].OrderID, false)
	if got := s.stockOf(t, v); got != wantStock+1 {
		t.Errorf("stock %d after a refund, want %d", got, wantStock+1)
	}
	if _, _, err := s.Orders.Transition(ctx, orders.Move(domain.OrderPay, newID(), time.Now())); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("transition of an unknown order: %v, want domain.ErrNotFound", err)
	}
}

func ordersExpire(t *testing.T, s Store) {
	ctx := context.Background()
	const n = 300
	v := s.pricedSale(t, n, 100)
	s.writeUsers(t, v, n, time.Millisecond)
	notDue := s.pricedSale(t, 1, 100)
	s.writeUsers(t, notDue, 1, time.Hour)
	time.Sleep(10 * time.Millisecond)
	var wg sync.WaitGroup
	var mu sync.Mutex
	seen := map[int64]int{}
	for range 8 {
		wg.Go(func() {
			for {
				got, err := s.Orders.ExpireDue(ctx, time.Now(), 25, orders.LineHold{})
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				for _, o := range got {
					if o.Status != domain.OrderCanceled || o.CancelReason != domain.CancelTimeout {
						t.Errorf("expired order %+v", o)
					}
					if o.VoucherID == v.ID {
						seen[o.ID]++
					}
				}
				mu.Unlock()
				if len(got) == 0 {
					return
				}
			}
		})
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
	if got := s.stockOf(t, v); got != n {
		t.Errorf("stock after expiry %d, want %d back", got, n)
	}
	if got := s.stockOf(t, notDue); got != 0 {
		t.Errorf("an order not due was expired (stock %d)", got)
	}
	if got, err := s.Orders.ExpireDue(ctx, time.Now(), 0, orders.LineHold{}); err != nil || len(got) != 0 {
		t.Errorf("expire none: %v, %v", got, err)
	}
}

func ordersOfShop(t *testing.T, s Store) {
	ctx := context.Background()
	v := s.pricedSale(t, 3, 700)
	since := time.Now().Add(-time.Hour)
	cs := s.writeUsers(t, v, 3, time.Hour)
	pay := orders.Move(domain.OrderPay, cs[0].OrderID, time.Now())
	pay.RedemptionCode = domain.NewRedemptionCode()
	cancel := orders.Move(domain.OrderCancel, cs[1].OrderID, time.Now())
	cancel.CancelReason = domain.CancelTimeout
	for _, tr := range []orders.Transition{pay, cancel} {
		if _, changed, err := s.Orders.Transition(ctx, tr); err != nil || !changed {
			t.Fatal(changed, err)
		}
	}
	counts, recent, err := s.Orders.CountByStatus(ctx, v.ID, since)
	if err != nil || counts[domain.OrderPaid] != 1 || counts[domain.OrderCanceled] != 1 || counts[domain.OrderCreated] != 1 || recent != 3 {
		t.Errorf("counts %v, recent %d, %v", counts, recent, err)
	}
	if _, recent, err := s.Orders.CountByStatus(ctx, v.ID, time.Now().Add(time.Hour)); err != nil || recent != 0 {
		t.Errorf("recent since an hour ahead: %d, %v", recent, err)
	}
	shopOrders, err := s.Orders.OrdersOfShop(ctx, v.ShopID, []domain.OrderStatus{domain.OrderPaid, domain.OrderCanceled}, 0, 10)
	if err != nil || len(shopOrders) != 2 || shopOrders[0].ID < shopOrders[1].ID {
		t.Errorf("shop orders %+v, %v", shopOrders, err)
	}
	all, err := s.Orders.OrdersOfShop(ctx, v.ShopID, nil, 0, 10)
	if err != nil || len(all) < 3 {
		t.Fatalf("all shop orders %+v, %v", all, err)
	}
	for _, o := range all {
		if o.ShopID != v.ShopID {
			t.Fatalf("orders of shop %d include %+v", v.ShopID, o)
		}
	}
	if page, err := s.Orders.OrdersOfShop(ctx, v.ShopID, nil, all[0].ID, 1); err != nil || len(page) != 1 || page[0].ID != all[1].ID {
		t.Errorf("the page before %d: %+v, %v; want %d", all[0].ID, page, err, all[1].ID)
	}
}

func ordersReclaim(t *testing.T, s Store) {
	ctx := context.Background()
	v := s.pricedSale(t, 2, 100)
	first := s.writeUsers(t, v, 1, time.Hour)[0]
	cancel := orders.Move(domain.OrderCancel, first.OrderID, time.Now())
	cancel.CancelReason = domain.CancelByBuyer
	if _, changed, err := s.Orders.Transition(ctx, cancel); err != nil || !changed {
		t.Fatal(changed, err)
	}
	res, err := s.Orders.WriteClaims(ctx, []domain.Claim{{OrderID: newID(), UserID: first.UserID, VoucherID: v.ID, ClaimedAt: time.Now()}}, time.Hour)
	if err != nil || len(res.Created) != 1 {
		t.Fatalf("second claim after a cancel: %+v, %v", res, err)
	}
	if holders, err := s.Orders.LiveHolders(ctx, v.ID, false); err != nil || len(holders) != 1 {
		t.Errorf("holders %v, %v", holders, err)
	}
	if holders, err := s.Orders.LiveHolders(ctx, v.ID, true); err != nil || len(holders) != 1 || holders[0] != first.UserID {
		t.Errorf("holders with the released %v, %v", holders, err)
	}
	c, err := s.Orders.CountOrders(ctx, v.ID)
	if err != nil || c.Created != 1 || c.Released != 1 || c.LiveUsers != 1 {
		t.Errorf("counts %+v, %v", c, err)
	}
}
