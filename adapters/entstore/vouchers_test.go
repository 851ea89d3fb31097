package entstore_test

import (
	"errors"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/domain"
)

func testFlashSaleVoucher(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	typ := mustShopType(t, s, "美食")
	sh, err := s.Shops().CreateShop(ctx, domain.Shop{Name: "103茶餐厅", TypeID: typ.ID, Longitude: 120.149192, Latitude: 30.316078})
	if err != nil {
		t.Fatal(err)
	}
	vouchers := s.Vouchers()
	normal, err := vouchers.CreateVoucher(ctx, domain.Voucher{
		ShopID: sh.ID, Title: "50元代金券", PayValue: 4750, ActualValue: 5000,
	})
	if err != nil {
		t.Fatal(err)
	}
	if normal.Kind != domain.VoucherNormal || normal.Status != domain.VoucherOnSale || normal.FlashSale != nil {
		t.Fatalf("normal voucher %+v", normal)
	}

	begin := time.Now().Add(-time.Hour).Truncate(time.Microsecond)
	end := begin.Add(7 * 24 * time.Hour)
	in := domain.Voucher{
		ShopID: sh.ID, Title: "100元代金券", SubTitle: "周一至周日均可使用", Rules: "全场通用\n无需预约",
		PayValue: 8000, ActualValue: 10000,
		FlashSale: &domain.FlashSale{Stock: 100, BeginTime: begin, EndTime: end},
	}
	created, err := vouchers.CreateVoucher(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if created.ID <= normal.ID || created.Kind != domain.VoucherFlashSale || created.FlashSale == nil ||
		created.FlashSale.VoucherID != created.ID {
		t.Fatalf("created %+v", created)
	}

	got, err := vouchers.Voucher(ctx, created.ID)
	if err != nil {
		t.Fatal(err)
	}
	checkFlashSale(t, got, created.ID, begin, end)
	if got.Title != in.Title || got.SubTitle != in.SubTitle || got.Rules != in.Rules ||
		got.PayValue != 8000 || got.ActualValue != 10000 || got.ShopID != sh.ID {
		t.Fatalf("read back %+v", got)
	}

	list, err := vouchers.VouchersOfShop(ctx, sh.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != normal.ID || list[0].FlashSale != nil {
		t.Fatalf("vouchers of shop = %+v", list)
	}
	checkFlashSale(t, list[1], created.ID, begin, end)

	if _, err := vouchers.Voucher(ctx, created.ID+1000); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("missing voucher: err = %v, want NOT_FOUND", err)
	}
	if other, err := vouchers.VouchersOfShop(ctx, sh.ID+1000); err != nil || len(other) != 0 {
		t.Fatalf("vouchers of unknown shop = %v, %v", other, err)
	}
}

func checkFlashSale(t *testing.T, v domain.Voucher, id int64, begin, end time.Time) {
	t.Helper()
	fs := v.FlashSale
	if v.ID != id || v.Kind != domain.VoucherFlashSale || fs == nil {
		t.Fatalf("voucher %+v, want flash sale %d", v, id)
	}
	if fs.VoucherID != id || fs.Stock != 100 || !fs.BeginTime.Equal(begin) || !fs.EndTime.Equal(end) {
		t.Fatalf("flash sale %+v, want stock 100 from %v to %v", *fs, begin, end)
	}
}

func testVoucherInput(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	typ := mustShopType(t, s, "美食")
	sh, err := s.Shops().CreateShop(ctx, domain.Shop{Name: "外婆家", TypeID: typ.ID})
	if err != nil {
		t.Fatal(err)
	}
	window := &domain.FlashSale{Stock: 10, BeginTime: time.Now(), EndTime: time.Now().Add(time.Hour)}
	tests := []struct {
		name string
		in   domain.Voucher
	}{
		{"flash-sale kind without a sale", domain.Voucher{ShopID: sh.ID, Title: "t", Kind: domain.VoucherFlashSale}},
		{"normal kind with a sale", domain.Voucher{ShopID: sh.ID, Title: "t", Kind: domain.VoucherNormal, FlashSale: window}},
		{"unknown kind", domain.Voucher{ShopID: sh.ID, Title: "t", Kind: "GIFT"}},
		{"unknown status", domain.Voucher{ShopID: sh.ID, Title: "t", Status: "HIDDEN"}},
		{"unknown shop", domain.Voucher{ShopID: sh.ID + 1000, Title: "t"}},
		{"negative stock", domain.Voucher{ShopID: sh.ID, Title: "t", FlashSale: &domain.FlashSale{Stock: -1}}},
		{"empty title", domain.Voucher{ShopID: sh.ID}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := s.Vouchers().CreateVoucher(ctx, tc.in); !errors.Is(err, domain.ErrBadInput) {
				t.Fatalf("err = %v, want BAD_USER_INPUT", err)
			}
		})
	}
	// The failed flash sale must not leave its voucher behind.
	list, err := s.Vouchers().VouchersOfShop(ctx, sh.ID)
	if err != nil || len(list) != 0 {
		t.Fatalf("vouchers after failed writes = %+v, %v; want none", list, err)
	}
}

func testFlashSaleBuckets(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	typ := mustShopType(t, s, "美食")
	sh, err := s.Shops().CreateShop(ctx, domain.Shop{Name: "新白鹿", TypeID: typ.ID})
	if err != nil {
		t.Fatal(err)
	}
	vouchers := s.Vouchers()
	begin := time.Now().Add(time.Hour).Truncate(time.Microsecond)
	sale := func(buckets int) domain.Voucher {
		v, err := vouchers.CreateVoucher(ctx, domain.Voucher{ShopID: sh.ID, Title: "t", PayValue: 1, ActualValue: 2,
			FlashSale: &domain.FlashSale{Stock: 10, BeginTime: begin, EndTime: begin.Add(time.Hour), Buckets: buckets}})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	split, unset := sale(3), sale(0)
	want := map[int64]int{split.ID: 3, unset.ID: 1}
	check := func(what string, v domain.Voucher) {
		t.Helper()
		if v.FlashSale == nil || v.FlashSale.Buckets != want[v.ID] {
			t.Fatalf("%s: voucher %d has sale %+v, want %d buckets", what, v.ID, v.FlashSale, want[v.ID])
		}
	}
	check("created", split)
	check("created", unset)
	for id := range want {
		v, err := vouchers.Voucher(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		check("Voucher", v)
	}
	list, err := vouchers.VouchersOfShop(ctx, sh.ID)
	if err != nil || len(list) != 2 {
		t.Fatalf("VouchersOfShop = %+v, %v", list, err)
	}
	for _, v := range list {
		check("VouchersOfShop", v)
	}
	byShop, err := vouchers.VouchersOfShops(ctx, []int64{sh.ID})
	if err != nil || len(byShop[sh.ID]) != 2 {
		t.Fatalf("VouchersOfShops = %+v, %v", byShop, err)
	}
	for _, v := range byShop[sh.ID] {
		check("VouchersOfShops", v)
	}
	ending, err := vouchers.FlashSalesEndingAfter(ctx, begin)
	if err != nil || len(ending) != 2 {
		t.Fatalf("FlashSalesEndingAfter = %+v, %v", ending, err)
	}
	for _, v := range ending {
		check("FlashSalesEndingAfter", v)
	}
	updated, err := vouchers.UpdateFlashSale(ctx, split.ID, func(_ domain.Voucher, fs *domain.FlashSale) error {
		if fs.Buckets != 3 {
			t.Errorf("UpdateFlashSale sees %d buckets, want 3", fs.Buckets)
		}
		fs.Stock = 20
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	check("UpdateFlashSale", updated)
}
