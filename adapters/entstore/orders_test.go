package entstore_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/domain"
)

func testOrderUnique(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	orders := s.Orders()
	first := domain.VoucherOrder{ID: 1001, UserID: 7, VoucherID: 3, Status: domain.OrderCreated}
	if err := orders.CreateOrder(ctx, first); err != nil {
		t.Fatal(err)
	}
	dup := domain.VoucherOrder{ID: 1002, UserID: 7, VoucherID: 3, Status: domain.OrderCreated}
	if err := orders.CreateOrder(ctx, dup); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("same user and voucher: err = %v, want CONFLICT", err)
	}
	other := domain.VoucherOrder{ID: 1003, UserID: 8, VoucherID: 3, Status: domain.OrderCreated}
	if err := orders.CreateOrder(ctx, other); err != nil {
		t.Fatalf("another user: %v", err)
	}
	otherVoucher := domain.VoucherOrder{ID: 1004, UserID: 7, VoucherID: 4}
	if err := orders.CreateOrder(ctx, otherVoucher); err != nil {
		t.Fatalf("another voucher: %v", err)
	}
	reusedID := domain.VoucherOrder{ID: 1001, UserID: 9, VoucherID: 3}
	if err := orders.CreateOrder(ctx, reusedID); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("reused id: err = %v, want CONFLICT", err)
	}

	got, err := orders.Order(ctx, first.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != first.ID || got.UserID != 7 || got.VoucherID != 3 || got.Status != domain.OrderCreated ||
		got.CreatedAt.IsZero() || got.PayTime != nil || got.UseTime != nil || got.RefundTime != nil {
		t.Fatalf("order = %+v", got)
	}
	if got, err := orders.Order(ctx, otherVoucher.ID); err != nil || got.Status != domain.OrderCreated {
		t.Fatalf("default status: %+v, %v", got, err)
	}
	if _, err := orders.Order(ctx, 1002); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("rejected order: err = %v, want NOT_FOUND", err)
	}

	paid := time.Now().Add(-time.Minute).Truncate(time.Microsecond)
	withTimes := domain.VoucherOrder{ID: 1005, UserID: 10, VoucherID: 3, Status: domain.OrderPaid, PayTime: &paid}
	if err := orders.CreateOrder(ctx, withTimes); err != nil {
		t.Fatal(err)
	}
	if got, err := orders.Order(ctx, withTimes.ID); err != nil || got.PayTime == nil || !got.PayTime.Equal(paid) {
		t.Fatalf("pay time: %+v, %v", got, err)
	}
	bad := domain.VoucherOrder{ID: 1006, UserID: 11, VoucherID: 3, Status: "LOST"}
	if err := orders.CreateOrder(ctx, bad); !errors.Is(err, domain.ErrBadInput) {
		t.Fatalf("unknown status: err = %v, want BAD_USER_INPUT", err)
	}
}

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
			err := s.Orders().CreateOrder(t.Context(), domain.VoucherOrder{ID: int64(2000 + i), UserID: 1, VoucherID: 1})
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
