package orderstest

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/domain"
)

// Store is an order store with a way to add the vouchers its orders are of.
type Store struct {
	Orders orders.OrderStore
	// Voucher stores v (a flash sale when v.FlashSale is set) under a shop of the
	// store's and returns it with its id and shop.
	Voucher func(t *testing.T, v domain.Voucher) domain.Voucher
	// Sold reads a shop's sold count.
	Sold func(t *testing.T, shopID int64) int64
}

// sale creates a flash-sale voucher with stock, open for an hour around now.
func (s Store) sale(t *testing.T, stock int) domain.Voucher {
	t.Helper()
	return s.pricedSale(t, stock, 100)
}

// pricedSale creates a flash-sale voucher with stock and pay value.
func (s Store) pricedSale(t *testing.T, stock int, payValue int64) domain.Voucher {
	t.Helper()
	now := time.Now().Truncate(time.Second)
	return s.Voucher(t, domain.Voucher{Title: "sale", SubTitle: "sub", Rules: "rules", PayValue: payValue,
		ActualValue: payValue + 100, Kind: domain.VoucherFlashSale, Status: domain.VoucherOnSale,
		FlashSale: &domain.FlashSale{Stock: stock, BeginTime: now.Add(-time.Hour), EndTime: now.Add(time.Hour)}})
}

// OrderStoreContract is what every orders.OrderStore must do, as its doc comments say.
// newStore returns a store; stores of one test may share their database.
func OrderStoreContract(t *testing.T, newStore func(t *testing.T) Store) {
	t.Helper()
	for _, c := range []struct {
		name string
		run  func(t *testing.T, s Store)
	}{
		{"claims become CREATED orders and take database stock once", ordersWrite},
		{"a second live order of a user is a duplicate", ordersDuplicate},
		{"claims beyond the database stock are refused, the stock stays at zero", ordersNoStock},
		{"a claim whose order id is another's order is refused", ordersIDTaken},
		{"fail claim records FAILED unless the order exists", ordersFail},
		{"a user's orders page newest first", ordersOfUser},
		{"live holders and counts leave FAILED orders out", ordersCounts},
		{"written orders record shop, price and deadline; free ones are paid with a code", ordersWrittenFields},
		{"a written order's pay deadline runs from its claim's millisecond", ordersDeadlineFromClaim},
		{"create order stores a purchase as given; a reused id is a conflict", ordersCreate},
		{"one of racing transitions wins; a release gives the unit back once", ordersTransitions},
		{"expire cancels the due orders once and gives their units back", ordersExpire},
		{"a shop's orders page newest first; counts by status", ordersOfShop},
		{"a released order lets its user claim the sale again", ordersReclaim},
		{"an order is redeemed unit by unit; a refund gives back the units left", ordersRedeemUnits},
		{"a redemption under a request id happens once; its key and units are kept", ordersRedeemRequests},
		{"a shop's sold counts the units of its paid and used orders, less those refunded", ordersSold},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.run(t, newStore(t))
		})
	}
}

func claim(v domain.Voucher, user int64) domain.Claim {
	return domain.Claim{OrderID: newID(), UserID: user, VoucherID: v.ID, ClaimedAt: time.Now().Truncate(time.Millisecond)}
}

func (s Store) write(t *testing.T, claims ...domain.Claim) orders.BatchResult {
	t.Helper()
	res, err := s.Orders.WriteClaims(context.Background(), claims, 15*time.Minute)
	if err != nil {
		t.Fatalf("write claims: %v", err)
	}
	return res
}

func (s Store) wantStock(t *testing.T, v domain.Voucher, want int64) {
	t.Helper()
	if got, err := s.Orders.SaleStock(context.Background(), v.ID); err != nil || got != want {
		t.Fatalf("database stock of %d = %d, %v; want %d", v.ID, got, err, want)
	}
}

func (s Store) wantOrder(t *testing.T, c domain.Claim, status domain.OrderStatus) {
	t.Helper()
	o, err := s.Orders.Order(context.Background(), c.OrderID)
	if err != nil || o.ID != c.OrderID || o.UserID != c.UserID || o.VoucherID != c.VoucherID || o.Status != status {
		t.Fatalf("order %d = %+v, %v; want %s for user %d, voucher %d", c.OrderID, o, err, status, c.UserID, c.VoucherID)
	}
}

func claimIDs(cs []domain.Claim) []int64 {
	ids := make([]int64, len(cs))
	for i, c := range cs {
		ids[i] = c.OrderID
	}
	slices.Sort(ids)
	return ids
}

func wantClaims(t *testing.T, what string, got []domain.Claim, want ...domain.Claim) {
	t.Helper()
	if !slices.Equal(claimIDs(got), claimIDs(want)) {
		t.Fatalf("%s = %v, want %v", what, claimIDs(got), claimIDs(want))
	}
}

func ordersWrite(t *testing.T, s Store) {
	v, w := s.sale(t, 5), s.sale(t, 5)
	a, b, c := claim(v, newID()), claim(v, newID()), claim(w, newID())
	res := s.write(t, a, b, c)
	wantClaims(t, "created", res.Created, a, b, c)
	wantClaims(t, "duplicate, no stock, id taken", append(append(res.Duplicate, res.NoStock...), res.IDTaken...))
	for _, cl := range []domain.Claim{a, b, c} {
		s.wantOrder(t, cl, domain.OrderCreated)
	}
	s.wantStock(t, v, 3)
	s.wantStock(t, w, 4)
	// Redelivered: the orders exist and are left as they are; no stock is taken again.
	res = s.write(t, a, b)
	wantClaims(t, "created on redelivery", res.Created, a, b)
	s.wantStock(t, v, 3)
	if _, err := s.Orders.Order(context.Background(), newID()); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("unknown order: %v, want domain.ErrNotFound", err)
	}
	if res := s.write(t); len(res.Created)+len(res.Duplicate)+len(res.NoStock)+len(res.IDTaken) != 0 {
		t.Fatalf("no claims: %+v", res)
	}
}

func ordersDuplicate(t *testing.T, s Store) {
	v := s.sale(t, 5)
	user := newID()
	first, second, third := claim(v, user), claim(v, user), claim(v, user)
	res := s.write(t, first)
	wantClaims(t, "created", res.Created, first)
	res = s.write(t, second, third)
	wantClaims(t, "duplicate", res.Duplicate, second, third)
	wantClaims(t, "created", res.Created)
	s.wantStock(t, v, 4)
	if _, err := s.Orders.Order(context.Background(), second.OrderID); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("order of a duplicate claim: %v, want domain.ErrNotFound", err)
	}
}

func ordersNoStock(t *testing.T, s Store) {
	v := s.sale(t, 2)
	a, b, c := claim(v, newID()), claim(v, newID()), claim(v, newID())
	res := s.write(t, a, b, c)
	if len(res.Created) != 2 || len(res.NoStock) != 1 {
		t.Fatalf("three claims on two units: %+v, want two created and one without stock", res)
	}
	s.wantStock(t, v, 0)
	d := claim(v, newID())
	res = s.write(t, d)
	wantClaims(t, "no stock", res.NoStock, d)
	s.wantStock(t, v, 0)
}

func ordersIDTaken(t *testing.T, s Store) {
	v, w := s.sale(t, 5), s.sale(t, 5)
	first := claim(v, newID())
	s.write(t, first)
	otherUser := domain.Claim{OrderID: first.OrderID, UserID: newID(), VoucherID: v.ID, ClaimedAt: first.ClaimedAt}
	otherSale := domain.Claim{OrderID: first.OrderID, UserID: first.UserID, VoucherID: w.ID, ClaimedAt: first.ClaimedAt}
	res := s.write(t, otherUser, otherSale)
	wantClaims(t, "id taken", res.IDTaken, otherUser, otherSale)
	wantClaims(t, "created", res.Created)
	s.wantOrder(t, first, domain.OrderCreated)
	s.wantStock(t, v, 4)
	s.wantStock(t, w, 5)
}

func ordersFail(t *testing.T, s Store) {
	ctx := context.Background()
	v := s.sale(t, 5)
	written, lost := claim(v, newID()), claim(v, newID())
	s.write(t, written)
	o, err := s.Orders.FailClaim(ctx, written, "sold out")
	if err != nil || o.ID != written.OrderID || o.Status != domain.OrderCreated {
		t.Fatalf("fail claim of a written order: %+v, %v; want it as it stands (CREATED)", o, err)
	}
	s.wantOrder(t, written, domain.OrderCreated)
	if o.FailReason != "" {
		t.Errorf("a written order carries the reason it was not failed for: %q", o.FailReason)
	}
	o, err = s.Orders.FailClaim(ctx, lost, domain.FailLost)
	if err != nil || o.ID != lost.OrderID || o.UserID != lost.UserID || o.VoucherID != v.ID || o.Status != domain.OrderFailed {
		t.Fatalf("fail claim: %+v, %v; want a FAILED order", o, err)
	}
	if o.FailReason != domain.FailLost {
		t.Errorf("failed order's reason = %q, want %q", o.FailReason, domain.FailLost)
	}
	s.wantOrder(t, lost, domain.OrderFailed)
	if o, err := s.Orders.Order(ctx, lost.OrderID); err != nil || o.FailReason != domain.FailLost {
		t.Errorf("failed order read back: %+v, %v; want reason %q", o, err, domain.FailLost)
	}
	if o, err := s.Orders.FailClaim(ctx, lost, "sold out"); err != nil || o.Status != domain.OrderFailed || o.FailReason != domain.FailLost {
		t.Fatalf("fail claim again: %+v, %v; want it as it stands (FAILED, %s)", o, err, domain.FailLost)
	}
	s.wantStock(t, v, 4)
	unknown := newID()
	got, err := s.Orders.WrittenOrders(ctx, []int64{written.OrderID, unknown, lost.OrderID})
	slices.Sort(got)
	want := []int64{written.OrderID, lost.OrderID}
	slices.Sort(want)
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("written orders among %d, %d (unknown), %d: %v, %v; want %v", written.OrderID, unknown, lost.OrderID, got, err, want)
	}
	// A FAILED order holds nothing: its user may claim again.
	again := claim(v, lost.UserID)
	res := s.write(t, again)
	wantClaims(t, "created after a FAILED order", res.Created, again)
}

func ordersOfUser(t *testing.T, s Store) {
	ctx := context.Background()
	user := newID()
	var claims []domain.Claim
	for range 3 {
		c := claim(s.sale(t, 1), user)
		s.write(t, c)
		claims = append(claims, c)
	}
	s.write(t, claim(s.sale(t, 1), newID())) // another user's
	ids := func(os []domain.VoucherOrder) []int64 {
		var out []int64
		for _, o := range os {
			if o.UserID != user {
				t.Fatalf("orders of user %d include %+v", user, o)
			}
			out = append(out, o.ID)
		}
		return out
	}
	newest := []int64{claims[2].OrderID, claims[1].OrderID, claims[0].OrderID}
	if got, err := s.Orders.OrdersOfUser(ctx, user, nil, 0, 10); err != nil || !slices.Equal(ids(got), newest) {
		t.Fatalf("orders of user: %v, %v; want %v", ids(got), err, newest)
	}
	if got, err := s.Orders.OrdersOfUser(ctx, user, nil, 0, 2); err != nil || !slices.Equal(ids(got), newest[:2]) {
		t.Fatalf("first page of 2: %v, %v; want %v", ids(got), err, newest[:2])
	}
	if got, err := s.Orders.OrdersOfUser(ctx, user, nil, newest[1], 10); err != nil || !slices.Equal(ids(got), newest[2:]) {
		t.Fatalf("orders before %d: %v, %v; want %v", newest[1], ids(got), err, newest[2:])
	}
}

func ordersCounts(t *testing.T, s Store) {
	ctx := context.Background()
	v := s.sale(t, 5)
	a, b := claim(v, newID()), claim(v, newID())
	s.write(t, a, b)
	failed := claim(v, newID())
	if _, err := s.Orders.FailClaim(ctx, failed, "sold out"); err != nil {
		t.Fatal(err)
	}
	holders, err := s.Orders.LiveHolders(ctx, v.ID, false)
	slices.Sort(holders)
	want := []int64{a.UserID, b.UserID}
	slices.Sort(want)
	if err != nil || !slices.Equal(holders, want) {
		t.Fatalf("live holders = %v, %v; want %v", holders, err, want)
	}
	counts, err := s.Orders.CountOrders(ctx, v.ID)
	if err != nil || counts != (orders.OrderCounts{Created: 2, Failed: 1, LiveUsers: 2}) {
		t.Fatalf("counts = %+v, %v; want 2 created, 1 failed, 2 live users", counts, err)
	}
}
