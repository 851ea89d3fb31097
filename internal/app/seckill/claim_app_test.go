package seckill_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/contracttest"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/app/seckill/seckilltest"
	"github.com/dealspot/dealspot/internal/domain"
)

// The claim path, the order writer and the reconciler on the seckilltest fakes, each
// held to the contract of the adapter it stands for; only the order store is a small
// stand-in of this file's.

// appOrders is the order store as far as these tests need it: orders by id and each
// sale's database stock. Its other methods are not implemented.
type appOrders struct {
	seckill.Orders

	mu     sync.Mutex
	stock  map[int64]int64
	orders map[int64]domain.VoucherOrder
}

func newAppOrders() *appOrders {
	return &appOrders{stock: map[int64]int64{}, orders: map[int64]domain.VoucherOrder{}}
}

// holdsUnit tells the statuses whose order holds a unit of its sale.
func holdsUnit(s domain.OrderStatus) bool {
	return s == domain.OrderPending || s == domain.OrderCreated || s == domain.OrderPaid || s == domain.OrderUsed
}

func (o *appOrders) WriteClaims(_ context.Context, claims []domain.Claim, _ time.Duration) (seckill.BatchResult, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	res := seckill.BatchResult{Status: map[int64]domain.OrderStatus{}}
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
		if o.stock[c.VoucherID] <= 0 {
			res.NoStock = append(res.NoStock, c)
			continue
		}
		o.stock[c.VoucherID]--
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

func (o *appOrders) SaleStock(_ context.Context, voucherID int64) (int64, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.stock[voucherID], nil
}

// setStock sets a sale's database stock.
func (o *appOrders) setStock(voucherID, stock int64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.stock[voucherID] = stock
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
	observed *countedClaims
}

// newFlashSale builds the service on fresh fakes; cfg's MaxStock and Pages are filled in.
func newFlashSale(t *testing.T, cfg seckill.Config) *flashSale {
	t.Helper()
	f := &flashSale{clock: contracttest.NewClock(), vouchers: seckilltest.NewMemVouchers(1), orders: newAppOrders(),
		gate: &countedGate{MemStockGate: seckilltest.NewMemStockGate()}, queue: seckilltest.NewMemClaimQueue(), requeue: seckilltest.NewMemClaimQueue(),
		ids: seckilltest.NewMemIDs(1000), status: seckilltest.NewMemStatusBus(), soldOut: seckilltest.NewMemSoldOutBus(),
		observed: &countedClaims{outcomes: map[seckill.ClaimOutcome]int{}, failed: map[seckill.FailReason]int{}}}
	cfg.MaxStock = 1000
	cfg.Pages = domain.PageLimits{Default: 10, Max: 50}
	cache := seckilltest.NewMemVoucherCache()
	svc, err := seckill.New(context.Background(), cfg, seckill.Deps{Vouchers: f.vouchers, Orders: f.orders, Gate: f.gate,
		Publisher: f.queue, Republisher: f.requeue, IDs: f.ids, Status: f.status, SoldOut: f.soldOut, Shops: seckilltest.NewMemShopOwners(),
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
	f.orders.setStock(v.ID, stock)
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

// An accepted claim takes a unit in the gate, is queued and answered PENDING; the order
// writer then writes its order, settles the reservation and tells the order's followers.
func TestClaimAcceptedIsQueuedAndWritten(t *testing.T) {
	t.Parallel()
	f := newFlashSale(t, seckill.Config{})
	v := f.openSale(t, 2)
	order := f.accept(t, 7, v)
	if order != 1000 {
		t.Fatalf("order id %d, want the generator's first (1000)", order)
	}
	f.wantGate(t, v, 1, 7)
	f.wantReservations(t, v, order)
	claims := f.wantPublished(t, f.queue, order)
	if c := claims[0]; c.UserID != 7 || c.VoucherID != v || !c.ClaimedAt.Equal(f.clock.Now()) {
		t.Fatalf("queued claim %+v, want user 7's of voucher %d at the clock's now", c, v)
	}
	f.wantCounted(t, seckill.ClaimAccepted, 1)

	events := f.follow(t, order)
	if err := f.OrderWriter.ProcessClaims(context.Background(), claims); err != nil {
		t.Fatalf("process claims: %v", err)
	}
	if o, err := f.orders.Order(context.Background(), order); err != nil || o.Status != domain.OrderCreated || o.UserID != 7 {
		t.Fatalf("order %d = %+v, %v; want user 7's, CREATED", order, o, err)
	}
	wantStatus(t, events, domain.OrderCreated)
	f.wantReservations(t, v)
	f.wantGate(t, v, 1, 7)
	// A claim delivered again finds its order and changes nothing.
	if err := f.OrderWriter.ProcessClaims(context.Background(), claims); err != nil {
		t.Fatalf("process claims again: %v", err)
	}
	if stock, _ := f.orders.SaleStock(context.Background(), v); stock != 1 {
		t.Fatalf("database stock %d after a claim written twice, want 1", stock)
	}
}

// A user holding the voucher is answered ALREADY_CLAIMED, and nothing more is taken or
// queued.
func TestClaimAlreadyClaimed(t *testing.T) {
	t.Parallel()
	f := newFlashSale(t, seckill.Config{})
	v := f.openSale(t, 5)
	order := f.accept(t, 7, v)
	f.refuse(t, 7, v, domain.CodeAlreadyClaimed)
	f.wantGate(t, v, 4, 7)
	f.wantPublished(t, f.queue, order)
	f.wantCounted(t, seckill.ClaimAlreadyClaimed, 1)
}

// The claim that meets an empty gate is answered SOLD_OUT and announces it to every node;
// later claims are answered from this node's mark: SOLD_OUT, and ALREADY_CLAIMED for the
// holder.
func TestClaimSoldOut(t *testing.T) {
	t.Parallel()
	f := newFlashSale(t, seckill.Config{})
	v := f.openSale(t, 1)
	order := f.accept(t, 7, v)
	f.refuse(t, 8, v, domain.CodeSoldOut)
	eventually(t, "the sale announced sold out", func() bool { return f.soldOut.Announced(v, true) })
	// Once this node has read the holders, claims are answered from its mark without the
	// gate.
	user := int64(100)
	eventually(t, "a claim answered from the mark", func() bool {
		user++
		before := f.gate.reserves.Load()
		f.refuse(t, user, v, domain.CodeSoldOut)
		return f.gate.reserves.Load() == before
	})
	before := f.gate.reserves.Load()
	f.refuse(t, 7, v, domain.CodeAlreadyClaimed)
	if f.gate.reserves.Load() != before {
		t.Fatal("the holder's claim reached the gate, want it answered from the mark")
	}
	f.wantGate(t, v, 0, 7)
	f.wantPublished(t, f.queue, order)
}

// A claim before the sale's window or after it is refused before the gate.
func TestClaimOutsideTheWindow(t *testing.T) {
	t.Parallel()
	f := newFlashSale(t, seckill.Config{})
	later := f.sale(t, 5, time.Minute, time.Hour)
	over := f.sale(t, 5, -time.Hour, 0)
	f.refuse(t, 7, later, domain.CodeNotStarted)
	f.refuse(t, 7, over, domain.CodeEnded)
	for _, v := range []int64{later, over} {
		if _, loaded, err := f.gate.Stock(context.Background(), v); err != nil || loaded {
			t.Fatalf("sale %d reached the gate (loaded %v, %v)", v, loaded, err)
		}
	}
	// Once the window opens the same sale is claimed (and loaded by the claim).
	f.clock.Advance(time.Minute)
	f.accept(t, 7, later)
	f.wantGate(t, later, 4, 7)
	f.wantCounted(t, seckill.ClaimNotStarted, 1)
	f.wantCounted(t, seckill.ClaimEnded, 1)
}

// Claims beyond the per-user limit, and beyond the node's global bucket, are answered
// RATE_LIMITED with a wait.
func TestClaimRateLimited(t *testing.T) {
	t.Parallel()
	t.Run("per user", func(t *testing.T) {
		t.Parallel()
		f := newFlashSale(t, seckill.Config{ClaimsPerUser: 2, ClaimWindow: time.Minute})
		a, b, c := f.openSale(t, 5), f.openSale(t, 5), f.openSale(t, 5)
		f.accept(t, 7, a)
		f.accept(t, 7, b)
		err := f.refuse(t, 7, c, domain.CodeRateLimited)
		var coded *domain.Error
		if !errors.As(err, &coded) || coded.RetryAfterSeconds < 1 || coded.RetryAfterSeconds > 60 {
			t.Fatalf("rate limited %+v, want a wait of 1 to 60 s", err)
		}
		f.accept(t, 8, c) // another user is not held back
		f.clock.Advance(time.Minute)
		f.accept(t, 7, c)
	})
	t.Run("global", func(t *testing.T) {
		t.Parallel()
		f := newFlashSale(t, seckill.Config{GlobalClaims: seckill.RateLimit{Max: 1, Window: time.Hour}})
		v := f.openSale(t, 5)
		f.accept(t, 7, v)
		f.refuse(t, 8, v, domain.CodeRateLimited)
		f.wantGate(t, v, 4, 7)
		f.wantCounted(t, seckill.ClaimRateLimited, 1)
	})
}

// A claim without a user, of an unknown voucher or of one that is not a flash sale is
// refused.
func TestClaimRefused(t *testing.T) {
	t.Parallel()
	f := newFlashSale(t, seckill.Config{})
	v := f.openSale(t, 5)
	f.refuse(t, 0, v, domain.CodeUnauthenticated)
	f.refuse(t, 7, 0, domain.CodeNotFound)
	f.refuse(t, 7, v+100, domain.CodeNotFound)
	normal, err := f.vouchers.CreateVoucher(context.Background(), domain.Voucher{ShopID: 1, Title: "normal", PayValue: 1, ActualValue: 2})
	if err != nil {
		t.Fatal(err)
	}
	f.refuse(t, 7, normal.ID, domain.CodeBadUserInput)
	f.wantGate(t, v, 5)
	f.wantCounted(t, seckill.ClaimRefused, 4)
}

// A sale the gate lost is loaded again from the database by the claim that finds it
// missing, holders included.
func TestClaimLoadsALostSale(t *testing.T) {
	t.Parallel()
	f := newFlashSale(t, seckill.Config{})
	v := f.sale(t, 3, -time.Hour, time.Hour)
	f.orders.mu.Lock()
	f.orders.orders[1] = domain.VoucherOrder{ID: 1, UserID: 6, VoucherID: v, Status: domain.OrderPaid}
	f.orders.stock[v] = 2
	f.orders.mu.Unlock()
	f.accept(t, 7, v)
	f.wantGate(t, v, 1, 6, 7)
	f.refuse(t, 6, v, domain.CodeAlreadyClaimed)
}

// A publish known not to have queued the claim undoes the reservation and is answered
// INTERNAL; a publish whose outcome is unknown keeps it and is answered PENDING.
func TestClaimPublishFailures(t *testing.T) {
	t.Parallel()
	f := newFlashSale(t, seckill.Config{})
	v := f.openSale(t, 2)
	f.queue.Fail(fmt.Errorf("broker refused: %w", seckill.ErrNotEnqueued))
	if res, err := f.claim(t, 7, v); !errors.Is(err, seckill.ErrNotEnqueued) || domain.ErrorCode(err) != domain.CodeInternal {
		t.Fatalf("claim not enqueued: %+v, %v; want INTERNAL", res, err)
	}
	f.wantGate(t, v, 2)
	f.wantReservations(t, v)
	if !f.soldOut.Announced(v, false) {
		t.Fatal("the undone unit was not announced back")
	}
	f.queue.Fail(errors.New("timeout"))
	order := f.accept(t, 7, v)
	f.wantGate(t, v, 1, 7)
	f.wantReservations(t, v, order)
	f.wantPublished(t, f.queue)
}

// The reconciler settles a reservation whose order is written, publishes again the claim
// of one older than RepublishAfter, and gives up one older than FailAfter: its order
// FAILED, its unit and the user's slot back, the user told.
func TestReconcileRepublishesAndFailsStaleReservations(t *testing.T) {
	t.Parallel()
	f := newFlashSale(t, seckill.Config{})
	v := f.openSale(t, 5)
	rc := seckill.ReconcileConfig{RepublishAfter: time.Minute, FailAfter: 10 * time.Minute, Lookback: time.Hour}
	ctx := context.Background()

	written := f.accept(t, 6, v)
	if err := f.OrderWriter.ProcessClaims(ctx, f.wantPublished(t, f.queue, written)); err != nil {
		t.Fatal(err)
	}
	f.clock.Advance(time.Second)
	stale := f.accept(t, 7, v)
	// The next order is written but its reservation not settled (the writer died between).
	f.clock.Advance(time.Second)
	settled := f.accept(t, 8, v)
	if _, err := f.orders.WriteClaims(ctx, f.queue.Published()[2:], time.Minute); err != nil {
		t.Fatal(err)
	}

	// Young reservations wait, except one whose order is written: the drift repair
	// settles it and tells its followers.
	written2 := f.follow(t, settled)
	rep, err := f.Reconciler.Reconcile(ctx, rc)
	if err != nil || rep.Republished != 0 || rep.Failed != 0 || rep.Settled != 1 {
		t.Fatalf("first pass: %+v, %v; want the written order's reservation settled, nothing else", rep, err)
	}
	wantStatus(t, written2, domain.OrderCreated)
	f.wantReservations(t, v, stale)
	f.clock.Advance(2 * time.Minute)
	rep, err = f.Reconciler.Reconcile(ctx, rc)
	if err != nil || rep.Republished != 1 || rep.Failed != 0 {
		t.Fatalf("after 2 min: %+v, %v; want one republished", rep, err)
	}
	if got := f.wantPublished(t, f.requeue, stale); got[0].UserID != 7 || got[0].VoucherID != v {
		t.Fatalf("republished %+v, want user 7's claim", got[0])
	}
	f.wantReservations(t, v, stale)

	events := f.follow(t, stale)
	f.clock.Advance(10 * time.Minute)
	rep, err = f.Reconciler.Reconcile(ctx, rc)
	if err != nil || rep.Failed != 1 {
		t.Fatalf("after 12 min: %+v, %v; want one failed", rep, err)
	}
	if o, err := f.orders.Order(ctx, stale); err != nil || o.Status != domain.OrderFailed || o.FailReason != seckill.ReasonExpired {
		t.Fatalf("stale order = %+v, %v; want FAILED, expired", o, err)
	}
	if e := wantStatus(t, events, domain.OrderFailed); e.Reason != seckill.ReasonExpired {
		t.Fatalf("event %+v, want the reason %q", e, seckill.ReasonExpired)
	}
	f.wantReservations(t, v)
	f.wantGate(t, v, 3, 6, 8)
	f.accept(t, 7, v) // the slot is back
	if n := f.observed.failures(seckill.FailExpired); n != 1 {
		t.Fatalf("%d orders counted failed expired, want 1", n)
	}
}

// A failing reconcile of one sale's reservations leaves it for the next pass and says so.
func TestReconcileReportsAFailedRepublish(t *testing.T) {
	t.Parallel()
	f := newFlashSale(t, seckill.Config{})
	v := f.openSale(t, 5)
	order := f.accept(t, 7, v)
	broken := errors.New("queue down")
	f.requeue.Fail(broken)
	f.clock.Advance(2 * time.Minute)
	rep, err := f.Reconciler.Reconcile(context.Background(), seckill.ReconcileConfig{RepublishAfter: time.Minute, FailAfter: time.Hour, Lookback: time.Hour})
	if !errors.Is(err, broken) || rep.Republished != 0 {
		t.Fatalf("reconcile with the queue down: %+v, %v; want its error", rep, err)
	}
	f.wantReservations(t, v, order)
	f.wantGate(t, v, 4, 7)
}

// The order writer fails the claims it cannot write: a duplicate (the user holds another
// order) gives its unit back and keeps the user's slot; a claim beyond the database's
// stock frees the slot and keeps the unit taken (Redis gave out more than it had). Both
// orders end FAILED with their reasons, and their followers are told.
func TestOrderWriterFailsDuplicateAndUnstockedClaims(t *testing.T) {
	t.Parallel()
	f := newFlashSale(t, seckill.Config{})
	ctx := context.Background()
	v := f.openSale(t, 5)
	// User 9 holds an order the gate did not learn of (written before a reload, say).
	f.orders.mu.Lock()
	f.orders.orders[1] = domain.VoucherOrder{ID: 1, UserID: 9, VoucherID: v, Status: domain.OrderCreated}
	f.orders.mu.Unlock()
	f.orders.setStock(v, 1)
	dup, ok, short := f.accept(t, 9, v), f.accept(t, 7, v), f.accept(t, 8, v)
	f.wantGate(t, v, 2, 7, 8, 9)
	dupEvents, okEvents, shortEvents := f.follow(t, dup), f.follow(t, ok), f.follow(t, short)
	if err := f.OrderWriter.ProcessClaims(ctx, f.wantPublished(t, f.queue, dup, ok, short)); err != nil {
		t.Fatalf("process claims: %v", err)
	}
	wantStatus(t, okEvents, domain.OrderCreated)
	for order, want := range map[int64]string{dup: seckill.ReasonDuplicate, short: seckill.ReasonNoStock} {
		if o, err := f.orders.Order(ctx, order); err != nil || o.Status != domain.OrderFailed || o.FailReason != want {
			t.Fatalf("order %d = %+v, %v; want FAILED, %q", order, o, err, want)
		}
	}
	if e := wantStatus(t, dupEvents, domain.OrderFailed); e.Reason != seckill.ReasonDuplicate {
		t.Fatalf("duplicate's event %+v, want the reason %q", e, seckill.ReasonDuplicate)
	}
	if e := wantStatus(t, shortEvents, domain.OrderFailed); e.Reason != seckill.ReasonNoStock {
		t.Fatalf("unstocked claim's event %+v, want the reason %q", e, seckill.ReasonNoStock)
	}
	// The duplicate's unit is back, its user still a holder; the unstocked claim's unit
	// stays taken and its user may claim again.
	f.wantReservations(t, v)
	f.wantGate(t, v, 3, 7, 9)
	if f.observed.failures(seckill.FailDuplicate) != 1 || f.observed.failures(seckill.FailNoStock) != 1 {
		t.Fatalf("failures counted: duplicate %d, no stock %d; want one each",
			f.observed.failures(seckill.FailDuplicate), f.observed.failures(seckill.FailNoStock))
	}
}
