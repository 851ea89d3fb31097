package seckill_test

import (
	"cmp"
	"context"
	"slices"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
)

// A PENDING order already shows what its written order will: the sale's price as its
// amount and its pay deadline, ORDER_PAY_TIMEOUT after the claim's millisecond — from
// its reservation (order(id) and myOrders) and, when Redis lost the reservation, from
// the node's memory of the claims it accepted.
func TestPendingOrderShowsAmountAndPayDeadline(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFlashSale(t, seckill.Config{PayTimeout: 10 * time.Minute, AcceptedMax: 100})
	v := f.openSale(t, 5)
	f.clock.Advance(1500*time.Microsecond + 7)
	claimedAt := f.clock.Now()
	order := f.accept(t, 7, v)
	wantDeadline := time.Date(2030, 1, 2, 3, 4, 5, int(time.Millisecond), time.UTC).Add(10 * time.Minute)
	if !claimedAt.Truncate(time.Millisecond).Add(10 * time.Minute).Equal(wantDeadline) {
		t.Fatalf("the test's clock moved: claimed at %v", claimedAt)
	}
	want := func(what string, o domain.VoucherOrder) {
		t.Helper()
		if o.ID != order || o.Status != domain.OrderPending || o.Amount != 100 || o.Quantity != 1 ||
			o.PayDeadline == nil || !o.PayDeadline.Equal(wantDeadline) {
			t.Errorf("%s: %+v (deadline %v), want PENDING, amount 100, deadline %v", what, o, o.PayDeadline, wantDeadline)
		}
	}
	o, found, err := f.Orders.Order(ctx, 7, order)
	if err != nil || !found {
		t.Fatalf("order(%d): %v, found %v", order, err, found)
	}
	want("order(id) from the reservation", o)
	page, err := f.Orders.MyOrders(ctx, 7, nil, 10, 0)
	if err != nil || len(page.Orders) != 1 {
		t.Fatalf("myOrders: %+v, %v", page, err)
	}
	want("myOrders from the reservation", page.Orders[0])

	// Redis lost the reservation: the claim is still shown from the node's memory.
	if dropped, err := f.gate.Drop(ctx, v, order, seckill.Release{}); err != nil || !dropped {
		t.Fatalf("drop the reservation: %v, %v", dropped, err)
	}
	o, found, err = f.Orders.Order(ctx, 7, order)
	if err != nil || !found {
		t.Fatalf("order(%d) without its reservation: %v, found %v", order, err, found)
	}
	want("order(id) from the accepted claims", o)
}

// OrdersOfUser lists the user's written orders, newest first (myOrders reads them).
func (o *appOrders) OrdersOfUser(_ context.Context, userID int64, statuses []domain.OrderStatus, before int64, limit int) ([]domain.VoucherOrder, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []domain.VoucherOrder
	for _, x := range o.orders {
		if x.UserID == userID && (before <= 0 || x.ID < before) && (len(statuses) == 0 || slices.Contains(statuses, x.Status)) {
			out = append(out, x)
		}
	}
	slices.SortFunc(out, func(a, b domain.VoucherOrder) int { return cmp.Compare(b.ID, a.ID) })
	return out[:min(len(out), limit)], nil
}
