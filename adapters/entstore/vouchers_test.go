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
