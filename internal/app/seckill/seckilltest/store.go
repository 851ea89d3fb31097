package seckilltest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
)

// Store is a relational store as the seckill ports see it. (Its orders meet the order
// store's contract, orderstest.OrderStoreContract.)
type Store struct {
	Vouchers seckill.Vouchers
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
