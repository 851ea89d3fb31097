package seckill_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/contracttest"
	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/app/seckill/seckilltest"
	"github.com/dealspot/dealspot/internal/domain"
)

// The fixture of the app-level tests (claim_app_test.go, writer_app_test.go,
// reconcile_app_test.go, sales_app_test.go): the flash sale's use cases on the
// seckilltest fakes, each held to the contract of the adapter it stands for; only the
// order store is a small stand-in of this file's.

// appOrders is the order store as far as these tests need it: orders by id beside the
// vouchers, whose flash sales hold the database stock, as in the database. Its other
// methods are not implemented.
type appOrders struct {
	orders.OrderStore
	vouchers *seckilltest.MemVouchers

	mu     sync.Mutex
	orders map[int64]domain.VoucherOrder
}

func newAppOrders(vouchers *seckilltest.MemVouchers) *appOrders {
	return &appOrders{vouchers: vouchers, orders: map[int64]domain.VoucherOrder{}}
}

// takeUnit takes one unit of the sale's database stock; false when none is left.
func (o *appOrders) takeUnit(voucherID int64) bool {
	_, err := o.vouchers.UpdateFlashSale(context.Background(), voucherID, func(_ domain.Voucher, fs *domain.FlashSale) error {
		if fs.Stock <= 0 {
			return errNoUnit
		}
		fs.Stock--
		return nil
	})
	return err == nil
}

var errNoUnit = errors.New("no unit left")

// holdsUnit tells the statuses whose order holds a unit of its sale.
func holdsUnit(s domain.OrderStatus) bool {
	return s == domain.OrderPending || s == domain.OrderCreated || s == domain.OrderPaid || s == domain.OrderUsed
}

func (o *appOrders) WriteClaims(_ context.Context, claims []domain.Claim, _ time.Duration) (orders.BatchResult, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	res := orders.BatchResult{Status: map[int64]domain.OrderStatus{}}
	for _, c := range claims {
		if old, ok := o.orders[c.OrderID]; ok {
			if old.UserID != c.UserID || old.VoucherID != c.VoucherID {
				res.IDTaken = append(res.IDTaken, c)
				continue
			}
			res.Created = append(res.Created, c)
			res.Status[c.OrderID] = old.Status
			continue
		}
		if o.holds(c.UserID, c.VoucherID) {
			res.Duplicate = append(res.Duplicate, c)
			continue
		}
		if !o.takeUnit(c.VoucherID) {
			res.NoStock = append(res.NoStock, c)
			continue
		}
		o.orders[c.OrderID] = domain.VoucherOrder{ID: c.OrderID, UserID: c.UserID, VoucherID: c.VoucherID,
			Kind: domain.VoucherFlashSale, Quantity: 1, Status: domain.OrderCreated, CreatedAt: c.ClaimedAt}
		res.Created = append(res.Created, c)
		res.Status[c.OrderID] = domain.OrderCreated
	}
	return res, nil
}

func (o *appOrders) holds(user, voucher int64) bool {
	for _, x := range o.orders {
		if x.UserID == user && x.VoucherID == voucher && holdsUnit(x.Status) {
			return true
		}
	}
	return false
}

func (o *appOrders) FailClaim(_ context.Context, c domain.Claim, reason string) (domain.VoucherOrder, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if old, ok := o.orders[c.OrderID]; ok {
		return old, nil
	}
	failed := domain.VoucherOrder{ID: c.OrderID, UserID: c.UserID, VoucherID: c.VoucherID, Kind: domain.VoucherFlashSale,
		Quantity: 1, Status: domain.OrderFailed, CreatedAt: c.ClaimedAt, FailReason: reason}
	o.orders[c.OrderID] = failed
	return failed, nil
}

func (o *appOrders) Order(_ context.Context, id int64) (domain.VoucherOrder, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	x, ok := o.orders[id]
	if !ok {
		return domain.VoucherOrder{}, domain.ErrNotFound
	}
	return x, nil
}

func (o *appOrders) WrittenOrders(_ context.Context, ids []int64) ([]int64, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []int64
	for _, id := range ids {
		if _, ok := o.orders[id]; ok {
			out = append(out, id)
		}
	}
	return out, nil
}

func (o *appOrders) LiveHolders(_ context.Context, voucherID int64, _ bool) ([]int64, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []int64
	for _, x := range o.orders {
		if x.VoucherID == voucherID && holdsUnit(x.Status) {
			out = append(out, x.UserID)
		}
	}
	return out, nil
}

func (o *appOrders) SaleStock(ctx context.Context, voucherID int64) (int64, error) {
	v, err := o.vouchers.Voucher(ctx, voucherID)
	if err != nil || v.FlashSale == nil {
		return 0, err
	}
	return int64(v.FlashSale.Stock), nil
}

func (o *appOrders) CountOrders(_ context.Context, voucherID int64) (orders.OrderCounts, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	var n orders.OrderCounts
	users := map[int64]bool{}
	for _, x := range o.orders {
		switch {
		case x.VoucherID != voucherID:
		case x.Status == domain.OrderFailed:
			n.Failed++
		case x.Status == domain.OrderCanceled || x.Status == domain.OrderRefunded:
			n.Released++
		case holdsUnit(x.Status):
			n.Created++
			users[x.UserID] = true
		}
	}
	n.LiveUsers = int64(len(users))
	return n, nil
}

// setStock sets a sale's database stock.
func (o *appOrders) setStock(t *testing.T, voucherID, stock int64) {
	t.Helper()
	if _, err := o.vouchers.UpdateFlashSale(context.Background(), voucherID, func(_ domain.Voucher, fs *domain.FlashSale) error {
		fs.Stock = int(stock)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// countedClaims is an observer counting the answered claims by outcome.
type countedClaims struct {
	seckill.NopObserver
	mu       sync.Mutex
	outcomes map[seckill.ClaimOutcome]int
	failed   map[seckill.FailReason]int
}

func (o *countedClaims) Claimed(c seckill.ClaimOutcome) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.outcomes[c]++
}

func (o *countedClaims) OrderFailed(r seckill.FailReason) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.failed[r]++
}

func (o *countedClaims) count(c seckill.ClaimOutcome) int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.outcomes[c]
}

func (o *countedClaims) failures(r seckill.FailReason) int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.failed[r]
}

// countedGate counts the reservations asked of the gate.
type countedGate struct {
	*seckilltest.MemStockGate
	reserves atomic.Int64
}

func (g *countedGate) Reserve(ctx context.Context, r seckill.Reservation) (seckill.Verdict, int64, error) {
	g.reserves.Add(1)
	return g.MemStockGate.Reserve(ctx, r)
}

// countedVoucherCache counts the voucher reads asked of the cache.
type countedVoucherCache struct {
	seckilltest.MemVoucherCache
	gets atomic.Int64
}

func (c *countedVoucherCache) Get(ctx context.Context, id int64, load func(context.Context) (domain.Voucher, bool, error)) (domain.Voucher, bool, error) {
	c.gets.Add(1)
	return c.MemVoucherCache.Get(ctx, id, load)
}

// flashSale is a flash sale's use cases on fakes, and the fakes.
type flashSale struct {
	*seckill.Service
	clock    *contracttest.Clock
	vouchers *seckilltest.MemVouchers
	orders   *appOrders
	gate     *countedGate
	queue    *seckilltest.MemClaimQueue
	requeue  *seckilltest.MemClaimQueue
	ids      *seckilltest.MemIDs
	status   *seckilltest.MemStatusBus
	soldOut  *seckilltest.MemSoldOutBus
	shops    *seckilltest.MemShopOwners
	observed *countedClaims
	cache    *countedVoucherCache
}

// newFlashSale builds the service on fresh fakes; cfg's MaxStock and Pages are filled in.
func newFlashSale(t *testing.T, cfg seckill.Config) *flashSale {
	t.Helper()
	vouchers := seckilltest.NewMemVouchers(1)
	f := &flashSale{clock: contracttest.NewClock(), vouchers: vouchers, orders: newAppOrders(vouchers),
		gate: &countedGate{MemStockGate: seckilltest.NewMemStockGate()}, queue: seckilltest.NewMemClaimQueue(), requeue: seckilltest.NewMemClaimQueue(),
		ids: seckilltest.NewMemIDs(1000), status: seckilltest.NewMemStatusBus(), soldOut: seckilltest.NewMemSoldOutBus(),
		shops:    seckilltest.NewMemShopOwners(),
		observed: &countedClaims{outcomes: map[seckill.ClaimOutcome]int{}, failed: map[seckill.FailReason]int{}}}
	cfg.MaxStock = 1000
	cfg.Pages = domain.PageLimits{Default: 10, Max: 50}
	cache := &countedVoucherCache{MemVoucherCache: seckilltest.NewMemVoucherCache()}
	f.cache = cache
	svc, err := seckill.New(context.Background(), cfg, seckill.Deps{Vouchers: f.vouchers, Orders: f.orders, Stock: f.gate,
		Publisher: f.queue, Republisher: f.requeue, IDs: f.ids, Status: f.status, SoldOut: f.soldOut, Shops: f.shops,
		VoucherCache: cache, VoucherChanges: cache, Observer: f.observed, Now: f.clock.Now,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	f.Service = svc
	return f
}

// sale stores a flash sale with stock, open from begin to end after the clock's now,
// without loading it into the gate.
func (f *flashSale) sale(t *testing.T, stock int64, begin, end time.Duration) int64 {
	t.Helper()
	now := f.clock.Now()
	v, err := f.vouchers.CreateVoucher(context.Background(), domain.Voucher{ShopID: 1, Title: "sale", PayValue: 100,
		ActualValue: 200, FlashSale: &domain.FlashSale{Stock: int(stock), BeginTime: now.Add(begin), EndTime: now.Add(end)}})
	if err != nil {
		t.Fatal(err)
	}
	return v.ID
}

// openSale stores a sale open for an hour around now and loads it, as the server does at
// start.
func (f *flashSale) openSale(t *testing.T, stock int64) int64 {
	t.Helper()
	v := f.sale(t, stock, -time.Hour, time.Hour)
	if n, err := f.Reconciler.LoadSales(context.Background()); err != nil || n != 1 {
		t.Fatalf("load sales: %d, %v; want 1 loaded", n, err)
	}
	return v
}

func (f *flashSale) claim(t *testing.T, user, voucher int64) (seckill.ClaimResult, error) {
	t.Helper()
	return f.ClaimVoucher.Handle(context.Background(), user, voucher)
}

// accept claims and wants it accepted: PENDING under a new order id.
func (f *flashSale) accept(t *testing.T, user, voucher int64) int64 {
	t.Helper()
	res, err := f.claim(t, user, voucher)
	if err != nil || res.Status != domain.OrderPending || res.OrderID == 0 {
		t.Fatalf("claim of %d by %d: %+v, %v; want PENDING with an order id", voucher, user, res, err)
	}
	return res.OrderID
}

// refuse claims and wants the answer code.
func (f *flashSale) refuse(t *testing.T, user, voucher int64, code domain.Code) error {
	t.Helper()
	res, err := f.claim(t, user, voucher)
	if domain.ErrorCode(err) != code {
		t.Fatalf("claim of %d by %d: %+v, %v; want %s", voucher, user, res, err, code)
	}
	return err
}

func (f *flashSale) wantGate(t *testing.T, voucher, stock int64, holders ...int64) {
	t.Helper()
	ctx := context.Background()
	if n, ok, err := f.gate.Stock(ctx, voucher); err != nil || !ok || n != stock {
		t.Fatalf("gate stock of %d = %d (loaded %v, %v), want %d", voucher, n, ok, err, stock)
	}
	got, err := f.gate.Holders(ctx, voucher)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(holders)
	if !slices.Equal(got, holders) {
		t.Fatalf("gate holders of %d = %v, want %v", voucher, got, holders)
	}
}

func (f *flashSale) wantReservations(t *testing.T, voucher int64, orders ...int64) {
	t.Helper()
	rs, err := f.gate.Reservations(context.Background(), voucher)
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	for _, r := range rs {
		got = append(got, r.OrderID)
	}
	slices.Sort(orders)
	if !slices.Equal(got, orders) {
		t.Fatalf("reservations of %d = %v, want %v", voucher, got, orders)
	}
}

func (f *flashSale) wantPublished(t *testing.T, q *seckilltest.MemClaimQueue, orders ...int64) []domain.Claim {
	t.Helper()
	claims := q.Published()
	var got []int64
	for _, c := range claims {
		got = append(got, c.OrderID)
	}
	if !slices.Equal(got, orders) {
		t.Fatalf("published claims %v, want %v", got, orders)
	}
	return claims
}

// wantCounted wants n claims counted with outcome o.
func (f *flashSale) wantCounted(t *testing.T, o seckill.ClaimOutcome, n int) {
	t.Helper()
	if got := f.observed.count(o); got != n {
		t.Fatalf("%d claims counted %s, want %d", got, o, n)
	}
}

// follow subscribes to the order's status events until the test ends.
func (f *flashSale) follow(t *testing.T, order int64) <-chan domain.OrderEvent {
	t.Helper()
	events, cancel, err := f.status.Subscribe(context.Background(), order)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cancel)
	return events
}

// eventually waits a few seconds for cond, which background work makes true.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

func wantStatus(t *testing.T, events <-chan domain.OrderEvent, status domain.OrderStatus) domain.OrderEvent {
	t.Helper()
	select {
	case e := <-events:
		if e.Status != status {
			t.Fatalf("event %+v, want %s", e, status)
		}
		return e
	case <-time.After(5 * time.Second):
		t.Fatalf("no event, want %s", status)
		return domain.OrderEvent{}
	}
}

func wantCode(t *testing.T, what string, err error, code domain.Code) {
	t.Helper()
	if domain.ErrorCode(err) != code {
		t.Fatalf("%s: %v, want %s", what, err, code)
	}
}

func ptr[T any](v T) *T { return &v }
