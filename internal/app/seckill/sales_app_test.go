package seckill_test

import (
	"context"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
)

// The merchant who runs a shop creates its flash sales, which are loaded into the gate at
// once; another merchant may not. Before a sale begins its stock may change (the gate is
// loaded again); once begun only its window may, which the gate follows.
func TestFlashSalesCreateAndEdit(t *testing.T) {
	t.Parallel()
	f := newFlashSale(t, seckill.Config{MaxBuckets: 1})
	ctx := context.Background()
	f.shops.SetOwner(1, 5)
	owner, other := domain.Actor{UserID: 5, Role: domain.RoleMerchant}, domain.Actor{UserID: 6, Role: domain.RoleMerchant}
	now := f.clock.Now()
	in := seckill.FlashSaleInput{VoucherInput: seckill.VoucherInput{ShopID: 1, Title: " Noodles for 1 ", PayValue: 100, ActualValue: 500},
		Stock: 3, BeginTime: now.Add(-time.Minute), EndTime: now.Add(time.Hour)}
	v, err := f.FlashSales.CreateFlashSale(ctx, owner, in)
	if err != nil || v.Title != "Noodles for 1" || v.FlashSale == nil || v.FlashSale.Stock != 3 {
		t.Fatalf("create: %+v, %v; want the sale of 3 units, its title trimmed", v, err)
	}
	f.wantGate(t, v.ID, 3)
	f.accept(t, 7, v.ID)

	_, err = f.FlashSales.CreateFlashSale(ctx, other, in)
	wantCode(t, "another merchant's shop", err, domain.CodeForbidden)
	unknown := in
	unknown.ShopID = 99
	_, err = f.FlashSales.CreateFlashSale(ctx, owner, unknown)
	wantCode(t, "an unknown shop", err, domain.CodeBadUserInput)
	for name, change := range map[string]func(*seckill.FlashSaleInput){
		"no stock":          func(in *seckill.FlashSaleInput) { in.Stock = 0 },
		"too much stock":    func(in *seckill.FlashSaleInput) { in.Stock = 1001 },
		"two buckets":       func(in *seckill.FlashSaleInput) { in.Buckets = ptr(2) },
		"ends before begin": func(in *seckill.FlashSaleInput) { in.EndTime = in.BeginTime },
		"ended":             func(in *seckill.FlashSaleInput) { in.BeginTime, in.EndTime = now.Add(-time.Hour), now },
		"no title":          func(in *seckill.FlashSaleInput) { in.Title = " " },
	} {
		bad := in
		change(&bad)
		_, err := f.FlashSales.CreateFlashSale(ctx, owner, bad)
		wantCode(t, name, err, domain.CodeBadUserInput)
	}

	// The begun sale: its stock and begin are fixed, its end moves (and the gate with
	// it), an end already past ending it now.
	_, err = f.FlashSales.UpdateFlashSale(ctx, owner, v.ID, seckill.SaleChanges{Stock: ptr(int64(10))})
	wantCode(t, "the stock of a begun sale", err, domain.CodeConflict)
	later := now.Add(time.Minute)
	_, err = f.FlashSales.UpdateFlashSale(ctx, owner, v.ID, seckill.SaleChanges{BeginTime: &later})
	wantCode(t, "a begun sale moved into the future", err, domain.CodeConflict)
	begin := in.BeginTime
	if _, err := f.FlashSales.UpdateFlashSale(ctx, owner, v.ID, seckill.SaleChanges{BeginTime: &begin, EndTime: &later}); err != nil {
		t.Fatalf("end the begun sale sooner, its begin given as it is: %v", err)
	}
	f.accept(t, 8, v.ID)
	past := now.Add(-30 * time.Second)
	ended, err := f.FlashSales.UpdateFlashSale(ctx, owner, v.ID, seckill.SaleChanges{EndTime: &past})
	if err != nil || !ended.FlashSale.EndTime.Equal(now) {
		t.Fatalf("end the begun sale in the past: %+v, %v; want it ended now (%v)", ended.FlashSale, err, now)
	}
	f.refuse(t, 9, v.ID, domain.CodeEnded)
	_, err = f.FlashSales.UpdateFlashSale(ctx, other, v.ID, seckill.SaleChanges{BeginTime: &now})
	wantCode(t, "another merchant's sale", err, domain.CodeForbidden)
	_, err = f.FlashSales.UpdateFlashSale(ctx, owner, 999, seckill.SaleChanges{BeginTime: &now})
	wantCode(t, "an unknown sale", err, domain.CodeNotFound)

	// A sale not begun: its stock changes, in the database and the gate.
	in.BeginTime = now.Add(time.Hour)
	in.EndTime = now.Add(2 * time.Hour)
	future, err := f.FlashSales.CreateFlashSale(ctx, owner, in)
	if err != nil {
		t.Fatal(err)
	}
	view, err := f.FlashSales.UpdateFlashSale(ctx, owner, future.ID, seckill.SaleChanges{Stock: ptr(int64(10))})
	if err != nil || view.FlashSale.Stock != 10 || view.Remaining != 10 {
		t.Fatalf("raise the stock: %+v, %v; want 10 units, 10 remaining", view, err)
	}
	f.wantGate(t, future.ID, 10)
}
