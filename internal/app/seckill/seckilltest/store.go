package seckilltest

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
)

// Store is a relational store as the seckill ports see it.
type Store struct {
	Vouchers seckill.Vouchers
	Orders   seckill.Orders
	// ShopID names a shop the store holds, for vouchers to belong to.
	ShopID int64
}

// VouchersContract is what every seckill.Vouchers must do, as its doc comments say.
// newStore returns a store; stores of one test may share their database.
func VouchersContract(t *testing.T, newStore func(t *testing.T) Store) {
	t.Helper()
	for _, c := range []struct {
		name string
		run  func(t *testing.T, s Store)
	}{
		{"a voucher is stored with its flash sale and read back", vouchersCreate},
		{"an unknown shop is bad input; an unknown voucher is not found", vouchersUnknown},
		{"flash sales ending after a time are listed", vouchersEndingAfter},
		{"update flash sale saves what update did, or nothing when it fails", vouchersUpdate},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.run(t, newStore(t))
		})
	}
}

// OrdersContract is what every seckill.Orders must do, as its doc comments say.
// newStore returns a store; stores of one test may share their database.
func OrdersContract(t *testing.T, newStore func(t *testing.T) Store) {
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
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.run(t, newStore(t))
		})
	}
}

// sale creates a flash-sale voucher with stock, open for an hour around now.
func (s Store) sale(t *testing.T, stock int) domain.Voucher {
	t.Helper()
	now := time.Now().Truncate(time.Second)
	v, err := s.Vouchers.CreateVoucher(context.Background(), domain.Voucher{ShopID: s.ShopID, Title: "sale", SubTitle: "sub",
		Rules: "rules", PayValue: 100, ActualValue: 200, Kind: domain.VoucherFlashSale, Status: domain.VoucherOnSale,
		FlashSale: &domain.FlashSale{Stock: stock, BeginTime: now.Add(-time.Hour), EndTime: now.Add(time.Hour)}})
	if err != nil {
		t.Fatalf("create flash sale: %v", err)
	}
	return v
}

func sameVoucher(a, b domain.Voucher) bool {
	if a.ID != b.ID || a.ShopID != b.ShopID || a.Title != b.Title || a.SubTitle != b.SubTitle || a.Rules != b.Rules ||
		a.PayValue != b.PayValue || a.ActualValue != b.ActualValue || a.Kind != b.Kind || a.Status != b.Status ||
		(a.FlashSale == nil) != (b.FlashSale == nil) {
		return false
	}
	if a.FlashSale == nil {
		return true
	}
	x, y := a.FlashSale, b.FlashSale
	return x.VoucherID == y.VoucherID && x.Stock == y.Stock && x.BeginTime.Equal(y.BeginTime) && x.EndTime.Equal(y.EndTime)
}

func vouchersCreate(t *testing.T, s Store) {
	ctx := context.Background()
	v := s.sale(t, 7)
	if v.ID == 0 || v.FlashSale == nil || v.FlashSale.VoucherID != v.ID || v.FlashSale.Stock != 7 {
		t.Fatalf("created %+v (sale %+v), want an id and the sale under it", v, v.FlashSale)
	}
	normal, err := s.Vouchers.CreateVoucher(ctx, domain.Voucher{ShopID: s.ShopID, Title: "normal", PayValue: 1, ActualValue: 2,
		Kind: domain.VoucherNormal, Status: domain.VoucherOnSale})
	if err != nil || normal.FlashSale != nil {
		t.Fatalf("create normal voucher: %+v, %v", normal, err)
	}
	for _, want := range []domain.Voucher{v, normal} {
		if got, err := s.Vouchers.Voucher(ctx, want.ID); err != nil || !sameVoucher(got, want) {
			t.Fatalf("voucher %d = %+v, %v; want %+v", want.ID, got, err, want)
		}
	}
	list, err := s.Vouchers.VouchersOfShop(ctx, s.ShopID)
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, got := range list {
		if got.ShopID != s.ShopID {
			t.Fatalf("vouchers of shop %d include %+v", s.ShopID, got)
		}
		if (got.ID == v.ID && sameVoucher(got, v)) || (got.ID == normal.ID && sameVoucher(got, normal)) {
			found++
		}
	}
	if found != 2 {
		t.Fatalf("vouchers of the shop = %+v, want both created", list)
	}
	byShop, err := s.Vouchers.VouchersOfShops(ctx, []int64{s.ShopID, s.ShopID + 1_000_000})
	if err != nil {
		t.Fatal(err)
	}
	if len(byShop) != 1 || len(byShop[s.ShopID]) != len(list) {
		t.Fatalf("vouchers of shops = %+v, want the shop's %d only", byShop, len(list))
	}
	for i, got := range byShop[s.ShopID] {
		if !sameVoucher(got, list[i]) {
			t.Fatalf("vouchers of shops [%d] = %+v, want %+v as VouchersOfShop lists it", i, got, list[i])
		}
	}
}

func vouchersUnknown(t *testing.T, s Store) {
	ctx := context.Background()
	_, err := s.Vouchers.CreateVoucher(ctx, domain.Voucher{ShopID: newID(), Title: "nowhere", PayValue: 1, ActualValue: 2,
		Kind: domain.VoucherNormal, Status: domain.VoucherOnSale})
	if domain.ErrorCode(err) != domain.CodeBadUserInput {
		t.Fatalf("voucher of an unknown shop: %v, want BAD_USER_INPUT", err)
	}
	if _, err := s.Vouchers.Voucher(ctx, newID()); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("unknown voucher: %v, want domain.ErrNotFound", err)
	}
}

func vouchersEndingAfter(t *testing.T, s Store) {
	ctx := context.Background()
	v := s.sale(t, 1)
	end := v.FlashSale.EndTime
	has := func(after time.Time) bool {
		t.Helper()
		list, err := s.Vouchers.FlashSalesEndingAfter(ctx, after)
		if err != nil {
			t.Fatal(err)
		}
		for _, got := range list {
			if got.FlashSale == nil {
				t.Fatalf("%+v listed without its flash sale", got)
			}
			if got.ID == v.ID {
				return true
			}
		}
		return false
	}
	if !has(end.Add(-time.Second)) || has(end) || has(end.Add(time.Second)) {
		t.Fatalf("sale ending at %s: listed after a second before %v, at the end %v, a second after %v; want true, false, false",
			end, has(end.Add(-time.Second)), has(end), has(end.Add(time.Second)))
	}
}

func vouchersUpdate(t *testing.T, s Store) {
	ctx := context.Background()
	v := s.sale(t, 5)
	begin, end := v.FlashSale.BeginTime.Add(time.Minute), v.FlashSale.EndTime.Add(time.Hour)
	got, err := s.Vouchers.UpdateFlashSale(ctx, v.ID, func(seen domain.Voucher, fs *domain.FlashSale) error {
		if !sameVoucher(seen, v) || fs.Stock != 5 {
			t.Errorf("update sees %+v (sale %+v), want the voucher as stored", seen, fs)
		}
		fs.Stock, fs.BeginTime, fs.EndTime = 9, begin, end
		return nil
	})
	want := v
	want.FlashSale = &domain.FlashSale{VoucherID: v.ID, Stock: 9, BeginTime: begin, EndTime: end}
	if err != nil || !sameVoucher(got, want) {
		t.Fatalf("update flash sale: %+v, %v; want %+v", got, err, want)
	}
	if stored, err := s.Vouchers.Voucher(ctx, v.ID); err != nil || !sameVoucher(stored, want) {
		t.Fatalf("after the update the voucher is %+v, %v", stored, err)
	}
	refused := errors.New("refused")
	if _, err := s.Vouchers.UpdateFlashSale(ctx, v.ID, func(_ domain.Voucher, fs *domain.FlashSale) error {
		fs.Stock = 1
		return refused
	}); !errors.Is(err, refused) {
		t.Fatalf("failed update: %v, want update's error", err)
	}
	if stored, err := s.Vouchers.Voucher(ctx, v.ID); err != nil || !sameVoucher(stored, want) {
		t.Fatalf("after a failed update the voucher is %+v, %v; want it unchanged", stored, err)
	}
	normal, err := s.Vouchers.CreateVoucher(ctx, domain.Voucher{ShopID: s.ShopID, Title: "normal", PayValue: 1, ActualValue: 2,
		Kind: domain.VoucherNormal, Status: domain.VoucherOnSale})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []int64{normal.ID, newID()} {
		if _, err := s.Vouchers.UpdateFlashSale(ctx, id, func(domain.Voucher, *domain.FlashSale) error { return nil }); !errors.Is(err, domain.ErrNotFound) {
			t.Fatalf("update of voucher %d without a sale: %v, want domain.ErrNotFound", id, err)
		}
	}
}

func claim(v domain.Voucher, user int64) domain.Claim {
	return domain.Claim{OrderID: newID(), UserID: user, VoucherID: v.ID, ClaimedAt: time.Now().Truncate(time.Millisecond)}
}

func (s Store) write(t *testing.T, claims ...domain.Claim) seckill.BatchResult {
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
	if err != nil || counts != (seckill.OrderCounts{Created: 2, Failed: 1, LiveUsers: 2}) {
		t.Fatalf("counts = %+v, %v; want 2 created, 1 failed, 2 live users", counts, err)
	}
}
