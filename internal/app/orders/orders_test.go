package orders_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/app/orders/orderstest"
	"github.com/dealspot/dealspot/internal/app/seckill/seckilltest"
	"github.com/dealspot/dealspot/internal/domain"
)

// These tests run on the fakes held to the ports' contracts (seckilltest's vouchers,
// shop owners, ids and status bus, orderstest's sales) but for the order store and the
// payments, which are private: fakeStore's counts change on every read (the stats
// watch's pacing needs numbers that always differ), and it records the orders created
// and moved; a call to any other method of it, or to the payments, panics (the embedded
// nil interfaces), which fails the test.
type fakeStore struct {
	orders.OrderStore
	mu      sync.Mutex
	created []domain.VoucherOrder
	byCode  map[string]domain.VoucherOrder
	moved   []orders.Transition
	reads   int
}

func (f *fakeStore) CreateOrder(_ context.Context, o domain.VoucherOrder) (domain.VoucherOrder, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.created = append(f.created, o)
	return o, nil
}

func (f *fakeStore) OrderByCode(_ context.Context, code string) (domain.VoucherOrder, error) {
	o, ok := f.byCode[code]
	if !ok {
		return domain.VoucherOrder{}, domain.ErrNotFound
	}
	return o, nil
}

func (f *fakeStore) Transition(_ context.Context, t orders.Transition) (domain.VoucherOrder, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.moved = append(f.moved, t)
	for code, o := range f.byCode {
		if o.ID == t.OrderID {
			if o.Status != t.From[0] {
				return o, false, nil
			}
			o.Status = t.To
			f.byCode[code] = o
			return o, true, nil
		}
	}
	return domain.VoucherOrder{}, false, domain.ErrNotFound
}

func (f *fakeStore) CountByStatus(context.Context, int64, time.Time) (map[domain.OrderStatus]int64, int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reads++
	// Something changes on every read: a new order each time.
	return map[domain.OrderStatus]int64{domain.OrderCreated: int64(f.reads)}, 0, nil
}

type noPayments struct{ orders.PaymentStore }
type noProvider struct{ orders.PaymentProvider }

var now = time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)

// vouchersOf stores vs (in shops 9 and 10) and returns the store and their ids, in order.
func vouchersOf(t *testing.T, vs ...domain.Voucher) (*seckilltest.MemVouchers, []int64) {
	t.Helper()
	store := seckilltest.NewMemVouchers(9, 10)
	ids := make([]int64, len(vs))
	for i, v := range vs {
		stored, err := store.CreateVoucher(context.Background(), v)
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = stored.ID
	}
	return store, ids
}

// owners returns the shop owners of pairs: a shop, its owner, and so on.
func owners(pairs ...int64) *seckilltest.MemShopOwners {
	s := seckilltest.NewMemShopOwners()
	for i := 0; i+1 < len(pairs); i += 2 {
		s.SetOwner(pairs[i], pairs[i+1])
	}
	return s
}

func newService(t *testing.T, cfg orders.Config, store *fakeStore, vouchers *seckilltest.MemVouchers, shops *seckilltest.MemShopOwners) *orders.Service {
	t.Helper()
	return newServiceAt(t, cfg, store, vouchers, shops, orderstest.NewMemSales(), func() time.Time { return now })
}

func newServiceAt(t *testing.T, cfg orders.Config, store *fakeStore, vouchers *seckilltest.MemVouchers, shops *seckilltest.MemShopOwners,
	sales *orderstest.MemSales, clock func() time.Time) *orders.Service {
	t.Helper()
	cfg.Pages = domain.PageLimits{Default: 10, Max: 100}
	svc, err := orders.New(cfg, orders.Deps{Orders: store, Payments: noPayments{}, Vouchers: vouchers, Shops: shops, Sales: sales,
		Provider: noProvider{}, Status: seckilltest.NewMemStatusBus(), IDs: seckilltest.NewMemIDs(1), Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

func TestBuyVoucherRules(t *testing.T) {
	store := &fakeStore{}
	vouchers, ids := vouchersOf(t,
		domain.Voucher{ShopID: 9, Kind: domain.VoucherNormal, Status: domain.VoucherOnSale, PayValue: 1250},
		domain.Voucher{ShopID: 9, Kind: domain.VoucherNormal, Status: domain.VoucherOnSale, PayValue: 0},
		domain.Voucher{ShopID: 9, Kind: domain.VoucherFlashSale, Status: domain.VoucherOnSale, PayValue: 100, FlashSale: &domain.FlashSale{Stock: 1}},
		domain.Voucher{ShopID: 9, Kind: domain.VoucherNormal, Status: domain.VoucherOffSale, PayValue: 100},
	)
	paid, free, flash, off := ids[0], ids[1], ids[2], ids[3]
	svc := newService(t, orders.Config{PayTimeout: 10 * time.Minute, MaxQuantity: 3}, store, vouchers, owners())
	buyer := domain.Actor{UserID: 5, Role: domain.RoleUser}
	ctx := context.Background()
	for _, c := range []struct {
		name     string
		a        domain.Actor
		voucher  int64
		quantity int
		code     domain.Code
	}{
		{"anonymous", domain.Actor{}, paid, 1, domain.CodeUnauthenticated},
		{"no quantity", buyer, paid, 0, domain.CodeBadUserInput},
		{"above the maximum", buyer, paid, 4, domain.CodeBadUserInput},
		{"a flash sale", buyer, flash, 1, domain.CodeBadUserInput},
		{"off sale", buyer, off, 1, domain.CodeBadUserInput},
		{"unknown", buyer, 99, 1, domain.CodeNotFound},
	} {
		if _, err := svc.Buy.Handle(ctx, c.a, c.voucher, c.quantity); domain.ErrorCode(err) != c.code {
			t.Errorf("%s: %v, want %s", c.name, err, c.code)
		}
	}
	o, err := svc.Buy.Handle(ctx, buyer, paid, 3)
	if err != nil || o.Status != domain.OrderCreated || o.Amount != 3750 || o.Quantity != 3 || o.ShopID != 9 ||
		o.PayDeadline == nil || !o.PayDeadline.Equal(now.Add(10*time.Minute)) || o.RedemptionCode != "" {
		t.Errorf("paid voucher: %+v, %v", o, err)
	}
	g, err := svc.Buy.Handle(ctx, buyer, free, 1)
	if err != nil || g.Status != domain.OrderPaid || g.PayTime == nil || len(g.RedemptionCode) != domain.RedemptionCodeLen || g.PayDeadline != nil {
		t.Errorf("free voucher: %+v, %v", g, err)
	}
}

func TestRedeemChecksTheShopAndNormalisesTheCode(t *testing.T) {
	code := domain.NewRedemptionCode()
	store := &fakeStore{byCode: map[string]domain.VoucherOrder{code: {ID: 1, UserID: 5, ShopID: 9, Status: domain.OrderPaid}}}
	svc := newService(t, orders.Config{}, store, seckilltest.NewMemVouchers(), owners(9, 70, 10, 80))
	ctx := context.Background()
	if _, err := svc.Redeem.Handle(ctx, domain.Actor{UserID: 80, Role: domain.RoleMerchant}, code, 1, nil); domain.ErrorCode(err) != domain.CodeNotFound {
		t.Errorf("the merchant of another shop: %v, want NOT_FOUND", err)
	}
	if _, err := svc.Redeem.Handle(ctx, domain.Actor{UserID: 5, Role: domain.RoleUser}, code, 1, nil); domain.ErrorCode(err) != domain.CodeNotFound {
		t.Errorf("the buyer: %v, want NOT_FOUND", err)
	}
	if len(store.moved) != 0 {
		t.Fatalf("refused redemptions moved orders: %+v", store.moved)
	}
	o, err := svc.Redeem.Handle(ctx, domain.Actor{UserID: 70, Role: domain.RoleMerchant}, "  "+lower(code)+" ", 1, nil)
	if err != nil || o.Status != domain.OrderUsed {
		t.Fatalf("the shop's merchant, code typed in lower case: %+v, %v", o, err)
	}
	_, err = svc.Redeem.Handle(ctx, domain.Actor{Role: domain.RoleAdmin, UserID: 1}, code, 1, nil)
	var e *domain.Error
	if domain.ErrorCode(err) != domain.CodeConflict || !asError(err, &e) || e.CurrentStatus != "USED" {
		t.Errorf("second redemption: %v, want CONFLICT with current status USED", err)
	}
}

func TestSaleStatsWatchIsPaced(t *testing.T) {
	store := &fakeStore{}
	vouchers, ids := vouchersOf(t, domain.Voucher{ShopID: 9, Kind: domain.VoucherFlashSale, FlashSale: &domain.FlashSale{Stock: 10}})
	sale := ids[0]
	// Live with 7 units left and 2 claims pending.
	sales := orderstest.NewMemSales()
	sales.Open(sale, orderstest.SaleSetup{Stock: 7, Holders: []int64{1}, Pending: []int64{2, 3}})
	const interval = 30 * time.Millisecond
	svc := newServiceAt(t, orders.Config{StatsInterval: interval}, store, vouchers, owners(9, 70), sales, time.Now)
	if _, err := svc.SaleStats.Watch(context.Background(), orders.FixedViewer(domain.Actor{UserID: 71, Role: domain.RoleMerchant}), sale); domain.ErrorCode(err) != domain.CodeForbidden {
		t.Errorf("another merchant watching: %v, want FORBIDDEN", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	watch, err := svc.SaleStats.Watch(ctx, orders.FixedViewer(domain.Actor{UserID: 70, Role: domain.RoleMerchant}), sale)
	if err != nil {
		t.Fatal(err)
	}
	stats := watch.Pushes
	first := <-stats
	if first.Remaining != 7 || first.Pending != 2 || first.Created != 1 || first.Accepted != 3 {
		t.Errorf("first push %+v", first)
	}
	// Every read changes the numbers, so each interval pushes; the pushes' read times
	// are never closer than the interval.
	prev := first.At
	for range 5 {
		s := <-stats
		if gap := s.At.Sub(prev); gap < interval {
			t.Errorf("pushes read %s apart, closer than the %s interval", gap, interval)
		}
		prev = s.At
	}
	cancel()
	for range stats {
	}
}

// A watch checks its viewer's right before every push and ends, with the refusal, once
// the viewer lost it.
func TestSaleStatsWatchEndsWhenTheViewerLosesTheRight(t *testing.T) {
	store := &fakeStore{}
	vouchers, ids := vouchersOf(t, domain.Voucher{ShopID: 9, Kind: domain.VoucherFlashSale, FlashSale: &domain.FlashSale{Stock: 10}})
	sale := ids[0]
	// Live with 7 units left and 2 claims pending.
	sales := orderstest.NewMemSales()
	sales.Open(sale, orderstest.SaleSetup{Stock: 7, Holders: []int64{1}, Pending: []int64{2, 3}})
	svc := newServiceAt(t, orders.Config{StatsInterval: 5 * time.Millisecond}, store, vouchers, owners(9, 70), sales, time.Now)
	for _, tc := range []struct {
		name  string
		later domain.Actor
		want  domain.Code
	}{
		{"role taken away", domain.Actor{UserID: 70, Role: domain.RoleUser}, domain.CodeForbidden},
		{"another merchant", domain.Actor{UserID: 71, Role: domain.RoleMerchant}, domain.CodeForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var lost atomic.Bool
			viewer := func(context.Context) (domain.Actor, error) {
				if lost.Load() {
					return tc.later, nil
				}
				return domain.Actor{UserID: 70, Role: domain.RoleMerchant}, nil
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			watch, err := svc.SaleStats.Watch(ctx, viewer, sale)
			if err != nil {
				t.Fatal(err)
			}
			<-watch.Pushes
			<-watch.Pushes // a push after the first one's check
			lost.Store(true)
			deadline := time.After(30 * time.Second)
		pushes:
			for after := 0; ; after++ {
				select {
				case _, ok := <-watch.Pushes:
					if !ok {
						break pushes
					}
					if after > 1 { // one push may have been checked before the change
						t.Fatalf("%d pushes after the viewer lost the right", after)
					}
				case <-deadline:
					t.Fatal("the watch went on after the viewer lost the right")
				}
			}
			if code := domain.ErrorCode(watch.Err()); code != tc.want {
				t.Fatalf("watch ended with %v, want %s", watch.Err(), tc.want)
			}
		})
	}
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func asError(err error, target **domain.Error) bool {
	e, ok := err.(*domain.Error)
	if ok {
		*target = e
	}
	return ok
}
