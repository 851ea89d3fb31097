package entstore_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/domain"
)

func testOrderUniqueConcurrent(t *testing.T, s *entstore.Store) {
	const n = 8
	var (
		wg                   sync.WaitGroup
		mu                   sync.Mutex
		won, conflicts, fail int
		failures             []error
	)
	for i := range n {
		wg.Go(func() {
			_, err := s.Orders().CreateOrder(t.Context(), domain.VoucherOrder{ID: int64(2000 + i), UserID: 1, VoucherID: 1})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				won++
			case errors.Is(err, domain.ErrConflict):
				conflicts++
			default:
				fail++
				failures = append(failures, err)
			}
		})
	}
	wg.Wait()
	if won != 1 || conflicts != n-1 {
		t.Fatalf("won %d, conflicts %d, other errors %d %v; want 1 and %d", won, conflicts, fail, failures, n-1)
	}
}

// An order id answered to two claims (ids repeated after Redis lost its counters) must not
// make the second claim CREATED: the row is the first claim's order.
func testClaimWithTakenOrderID(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	shop, err := s.Shops().CreateShop(ctx, domain.Shop{Name: "shop", TypeID: mustShopType(t, s, "美食").ID, Longitude: 120.1, Latitude: 30.2})
	if err != nil {
		t.Fatal(err)
	}
	newSale := func() domain.Voucher {
		v, err := s.Vouchers().CreateVoucher(ctx, domain.Voucher{ShopID: shop.ID, Title: "sale", PayValue: 1, ActualValue: 2,
			Kind: domain.VoucherFlashSale, Status: domain.VoucherOnSale,
			FlashSale: &domain.FlashSale{Stock: 10, BeginTime: time.Now().Add(-time.Hour), EndTime: time.Now().Add(time.Hour)}})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	sale, otherSale := newSale(), newSale()
	orders := s.Orders()
	first := domain.Claim{OrderID: 4242, UserID: 7, VoucherID: sale.ID, ClaimedAt: time.Now()}
	if res, err := orders.WriteClaims(ctx, []domain.Claim{first}, 15*time.Minute); err != nil || len(res.Created) != 1 {
		t.Fatalf("first claim: %+v, %v", res, err)
	}
	sameUserOtherSale := domain.Claim{OrderID: first.OrderID, UserID: 7, VoucherID: otherSale.ID, ClaimedAt: time.Now()}
	for _, c := range []domain.Claim{
		{OrderID: first.OrderID, UserID: 8, VoucherID: sale.ID, ClaimedAt: time.Now()},
		sameUserOtherSale,
	} {
		res, err := orders.WriteClaims(ctx, []domain.Claim{c, first}, 15*time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Created) != 1 || res.Created[0] != first {
			t.Fatalf("claim %+v with a taken id: created = %+v, want only the redelivered first claim", c, res.Created)
		}
		if len(res.IDTaken) != 1 || res.IDTaken[0] != c || len(res.Duplicate) != 0 || len(res.NoStock) != 0 {
			t.Fatalf("claim %+v with a taken id: result = %+v, want it in IDTaken", c, res)
		}
	}
	if got, err := orders.Order(ctx, first.OrderID); err != nil || got.UserID != 7 || got.VoucherID != sale.ID || got.Status != domain.OrderCreated {
		t.Fatalf("first order = %+v, %v", got, err)
	}
	for _, v := range []domain.Voucher{sale, otherSale} {
		want := int64(10)
		if v.ID == sale.ID {
			want = 9
		}
		if stock, err := orders.SaleStock(ctx, v.ID); err != nil || stock != want {
			t.Fatalf("stock of %d = %d, %v; want %d", v.ID, stock, err, want)
		}
	}
}
