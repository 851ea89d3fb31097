package seckill_test

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
)

// memWarmupLocks is seckill.WarmupLocks in memory, shared by the "nodes" of a test; it
// counts the locks taken.
type memWarmupLocks struct {
	mu    sync.Mutex
	until map[int64]time.Time
	now   func() time.Time
	taken atomic.Int64
}

func (l *memWarmupLocks) TryWarmup(_ context.Context, voucherID int64, ttl time.Duration) (bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.now().Before(l.until[voucherID]) {
		return false, nil
	}
	l.until[voucherID] = l.now().Add(ttl)
	l.taken.Add(1)
	return true, nil
}

var quietLog = slog.New(slog.DiscardHandler)

// countedLoads counts the sales the gate loads.
type countedLoads struct {
	*countedGate
	loads atomic.Int64
}

func (g *countedLoads) Load(ctx context.Context, s seckill.SaleState, replace bool) (bool, error) {
	ok, err := g.countedGate.Load(ctx, s, replace)
	if ok {
		g.loads.Add(1)
	}
	return ok, err
}

// warmupNodes builds n flash-sale services ("nodes") on one set of fakes, with
// SALE_WARMUP_BEFORE 10m and shared warm-up locks.
func warmupNodes(t *testing.T, n int) (*flashSale, []*seckill.Service, *countedLoads, *memWarmupLocks) {
	t.Helper()
	f := newFlashSale(t, seckill.Config{})
	gate := &countedLoads{countedGate: f.gate}
	locks := &memWarmupLocks{until: map[int64]time.Time{}, now: f.clock.Now}
	nodes := make([]*seckill.Service, n)
	for i := range nodes {
		svc, err := seckill.New(context.Background(), seckill.Config{MaxStock: 1000, WarmupBefore: 10 * time.Minute,
			Pages: domain.PageLimits{Default: 10, Max: 50}}, seckill.Deps{Vouchers: f.vouchers, Orders: f.orders, Stock: gate,
			Publisher: f.queue, Republisher: f.requeue, IDs: f.ids, Status: f.status, SoldOut: f.soldOut, Shops: f.shops,
			VoucherCache: f.cache, VoucherChanges: f.cache, Observer: f.observed, Now: f.clock.Now, WarmupLocks: locks, Log: quietLog})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(svc.Close)
		nodes[i] = svc
	}
	f.Service = nodes[0]
	return f, nodes, gate, locks
}

func TestSaleIsWarmedUpBeforeItBeginsByOneNode(t *testing.T) {
	t.Parallel()
	f, nodes, gate, locks := warmupNodes(t, 3)
	ctx := context.Background()
	admin := domain.Actor{UserID: 1, Role: domain.RoleAdmin}
	begin := f.clock.Now().Add(time.Hour)
	v, err := f.FlashSales.CreateFlashSale(ctx, admin, seckill.FlashSaleInput{VoucherInput: seckill.VoucherInput{ShopID: 1,
		Title: "later", PayValue: 1, ActualValue: 2}, Stock: 3, BeginTime: begin, EndTime: begin.Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	// Created an hour ahead: not in the gate yet, not at start either, nor by a pass.
	if n, err := f.Reconciler.LoadSales(ctx); err != nil || n != 0 {
		t.Fatalf("load at start an hour ahead: %d, %v; want nothing loaded", n, err)
	}
	if _, err := f.Reconciler.Reconcile(ctx, seckill.ReconcileConfig{}); err != nil {
		t.Fatal(err)
	}
	for _, node := range nodes {
		n, next, err := node.Warmup.Pass(ctx)
		if err != nil || n != 0 || !next.Equal(begin.Add(-10*time.Minute)) {
			t.Fatalf("warm-up pass an hour ahead: %d loaded, next %v, %v; want none, next at %v", n, next, err, begin.Add(-10*time.Minute))
		}
	}
	if st, ok, err := f.Warmup.Status(ctx, v); err != nil || !ok || st.Loaded || !st.At.Equal(begin.Add(-10*time.Minute)) {
		t.Fatalf("status an hour ahead: %+v %v %v; want not loaded, due 10 min before it begins", st, ok, err)
	}
	if loads := gate.loads.Load(); loads != 0 {
		t.Fatalf("the gate loaded the sale %d times an hour before it begins", loads)
	}
	f.refuse(t, 7, v.ID, domain.CodeNotStarted)

	// Ten minutes before it begins, every node runs its pass: one loads it.
	f.clock.Advance(50 * time.Minute)
	var wg sync.WaitGroup
	var loaded atomic.Int64
	for _, node := range nodes {
		wg.Go(func() {
			n, _, err := node.Warmup.Pass(ctx)
			if err != nil {
				t.Error(err)
			}
			loaded.Add(int64(n))
		})
	}
	wg.Wait()
	if loaded.Load() != 1 || gate.loads.Load() != 1 || locks.taken.Load() != 1 {
		t.Fatalf("warm-up by three nodes: %d loaded, %d gate loads, %d locks; want one each", loaded.Load(), gate.loads.Load(), locks.taken.Load())
	}
	f.wantGate(t, v.ID, 3)
	if st, _, _ := f.Warmup.Status(ctx, v); !st.Loaded {
		t.Fatalf("status after the warm-up: %+v; want loaded", st)
	}
	// Still refused until it begins; then claimed from the gate without another load.
	f.refuse(t, 7, v.ID, domain.CodeNotStarted)
	f.clock.Advance(10 * time.Minute)
	f.accept(t, 7, v.ID)
	if gate.loads.Load() != 1 {
		t.Fatalf("%d gate loads after the first claim, want the warm-up's only", gate.loads.Load())
	}
}

func TestSaleBeginningSoonIsLoadedAtCreation(t *testing.T) {
	t.Parallel()
	f, _, gate, _ := warmupNodes(t, 1)
	ctx := context.Background()
	begin := f.clock.Now().Add(5 * time.Minute)
	v, err := f.FlashSales.CreateFlashSale(ctx, domain.Actor{UserID: 1, Role: domain.RoleAdmin}, seckill.FlashSaleInput{VoucherInput: seckill.VoucherInput{ShopID: 1,
		Title: "soon", PayValue: 1, ActualValue: 2}, Stock: 2, BeginTime: begin, EndTime: begin.Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if gate.loads.Load() != 1 {
		t.Fatalf("a sale beginning within SALE_WARMUP_BEFORE: %d gate loads at creation, want 1", gate.loads.Load())
	}
	f.wantGate(t, v.ID, 2)
}

func TestWarmupRunSleepsUntilTheNextSaleIsDue(t *testing.T) {
	// (A sale due later than a minute ahead is found by the next minute's pass.)
	t.Parallel()
	f, nodes, gate, _ := warmupNodes(t, 1)
	// The fake clock's timers: Run waits on them, the test fires them.
	waits := make(chan time.Duration, 10)
	fire := make(chan time.Time)
	svc, err := seckill.New(context.Background(), seckill.Config{MaxStock: 1000, WarmupBefore: 10 * time.Minute,
		Pages: domain.PageLimits{Default: 10, Max: 50}}, seckill.Deps{Vouchers: f.vouchers, Orders: f.orders, Stock: gate,
		Publisher: f.queue, Republisher: f.requeue, IDs: f.ids, Status: f.status, SoldOut: f.soldOut, Shops: f.shops,
		VoucherCache: f.cache, VoucherChanges: f.cache, Now: f.clock.Now, Log: quietLog,
		After: func(d time.Duration) <-chan time.Time { waits <- d; return fire }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	_ = nodes
	begin := f.clock.Now().Add(10*time.Minute + 30*time.Second)
	sale := f.sale(t, 4, 10*time.Minute+30*time.Second, 90*time.Minute)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go svc.Warmup.Run(ctx)
	if d := <-waits; d != 30*time.Second {
		t.Fatalf("Run waits %v, want 30s: until 10 min before the sale begins (%v)", d, begin)
	}
	f.clock.Advance(30 * time.Second)
	fire <- f.clock.Now()
	<-waits // the next wait: the pass that loaded the sale is done
	f.wantGate(t, sale, 4)
}
