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

	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/app/orders/orderstest"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/app/seckill/seckilltest"
	"github.com/dealspot/dealspot/internal/domain"
)

// unitsGate is one sale's stock in a gate: claims take units, returned orders give
// theirs back at most once per order id. Every other call panics (the embedded nil
// interface).
type unitsGate struct {
	seckill.SaleStock
	mu       sync.Mutex
	stock    int64
	pending  int64
	reserves int
	// returned are the orders whose unit came back; returnCalls counts the calls.
	returned    map[int64]bool
	returnCalls int
	freeSlot    []bool
	// fail makes ReturnUnits fail (the gate cannot be reached).
	fail error
}

func (g *unitsGate) Reserve(_ context.Context, r seckill.Reservation) (seckill.Verdict, int64, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.reserves++
	if g.stock == 0 {
		return seckill.SoldOut, 0, nil
	}
	g.stock--
	return seckill.Accepted, g.stock, nil
}

func (g *unitsGate) ReturnUnits(_ context.Context, _ int64, units []seckill.ReturnedUnit, freeSlot bool) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.returnCalls++
	g.freeSlot = append(g.freeSlot, freeSlot)
	if g.fail != nil {
		return 0, g.fail
	}
	n := 0
	for _, u := range units {
		if !g.returned[u.OrderID] {
			g.returned[u.OrderID] = true
			g.stock++
			n++
		}
	}
	return n, nil
}

func (g *unitsGate) Stock(context.Context, int64) (int64, bool, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.stock, true, nil
}

func (g *unitsGate) Reservations(context.Context, int64) ([]seckill.Reservation, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return make([]seckill.Reservation, g.pending), nil
}

func (g *unitsGate) Holders(context.Context, int64) ([]int64, error) { return nil, nil }

func (g *unitsGate) reserved() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.reserves
}

// reopenedCount is how often the sale was announced open again.
func (s *writerSoldOut) reopenedCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.reopened)
}

// openSale is the voucher cache holding one flash sale, open now.
type openSale struct{ v domain.Voucher }

func (s openSale) Get(context.Context, int64, func(context.Context) (domain.Voucher, bool, error)) (domain.Voucher, bool, error) {
	return s.v, true, nil
}

type unitsIDs struct{ n atomic.Int64 }

func (i *unitsIDs) NextID(context.Context) (int64, error) { return 1000 + i.n.Add(1), nil }

type queued struct{}

func (queued) PublishClaim(context.Context, domain.Claim) error { return nil }

type quietStatus struct{ seckill.StatusBus }

func (quietStatus) Publish(context.Context, ...domain.OrderEvent) error { return nil }

const unitsSale = 7

func newUnitsService(t *testing.T, gate *unitsGate, bus *writerSoldOut) *seckill.Service {
	t.Helper()
	return newUnitsServiceOn(t, gate, bus)
}

// newUnitsServiceOn is newUnitsService on any gate.
func newUnitsServiceOn(t *testing.T, gate seckill.SaleStock, bus *writerSoldOut) *seckill.Service {
	t.Helper()
	now := time.Now()
	sale := openSale{domain.Voucher{ID: unitsSale, ShopID: 1, Kind: domain.VoucherFlashSale, Status: domain.VoucherOnSale,
		FlashSale: &domain.FlashSale{Stock: 1, BeginTime: now.Add(-time.Hour), EndTime: now.Add(time.Hour)}}}
	svc, err := seckill.New(t.Context(), seckill.Config{MaxStock: 100, Pages: domain.PageLimits{Default: 10, Max: 100}}, seckill.Deps{
		Vouchers: noVouchers{}, Orders: struct{ orders.OrderStore }{}, Stock: gate,
		Publisher: queued{}, Republisher: queued{}, IDs: &unitsIDs{}, Status: quietStatus{}, SoldOut: bus, Shops: noShops{},
		VoucherCache: sale, VoucherChanges: noInvalidator{}, Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	return svc
}

// soldOutHere claims until a claim is answered SOLD_OUT from this node's board, without
// reaching the gate.
func soldOutHere(t *testing.T, svc *seckill.Service, gate *unitsGate) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for user := int64(100); time.Now().Before(deadline); user++ {
		before := gate.reserved()
		_, err := svc.ClaimVoucher.Handle(context.Background(), user, unitsSale)
		if !errors.Is(err, domain.ErrSoldOut) {
			t.Fatalf("claim on a sold-out sale: %v, want SOLD_OUT", err)
		}
		if gate.reserved() == before {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("the sold-out sale never got its mark on this node's board")
}

// The units of canceled and refunded orders go back through the flash sale: a flash-sale
// order's unit reaches the gate once however often it is returned (an order of a normal
// voucher gives nothing), the user's slot is freed as asked, and a sold-out sale opens
// again — on this node's board, where the next claim reaches the gate and wins the
// unit, and on every node through the sold-out bus, once.
func TestSaleUnitsReturnReopensSoldOutSale(t *testing.T) {
	t.Parallel()
	gate := &unitsGate{returned: map[int64]bool{}}
	bus := &writerSoldOut{}
	svc := newUnitsService(t, gate, bus)
	soldOutHere(t, svc, gate)

	released := []domain.VoucherOrder{
		{ID: 10, UserID: 5, VoucherID: unitsSale, Kind: domain.VoucherFlashSale, Status: domain.OrderCanceled},
		{ID: 11, UserID: 6, VoucherID: unitsSale, Kind: domain.VoucherNormal, Status: domain.OrderCanceled},
	}
	ctx := context.Background()
	n, err := svc.Units.ReturnUnits(ctx, unitsSale, released, true)
	if err != nil || n != 1 {
		t.Fatalf("ReturnUnits = %d, %v; want 1 unit back", n, err)
	}
	if n, err := svc.Units.ReturnUnits(ctx, unitsSale, released, true); err != nil || n != 0 {
		t.Fatalf("ReturnUnits again = %d, %v; want nothing back", n, err)
	}
	if gate.stock != 1 || len(gate.returned) != 1 || !gate.returned[10] {
		t.Errorf("gate holds %d units, returned %v; want the flash-sale order's unit once", gate.stock, gate.returned)
	}
	if !slices.Equal(gate.freeSlot, []bool{true, true}) {
		t.Errorf("freeSlot passed to the gate %v, want true each time", gate.freeSlot)
	}
	if got := bus.reopenedCount(); got != 1 {
		t.Errorf("sale announced open again %d times, want 1 (not for the return that gave nothing)", got)
	}

	before := gate.reserved()
	res, err := svc.ClaimVoucher.Handle(ctx, 999, unitsSale)
	if err != nil || res.Status != domain.OrderPending {
		t.Fatalf("claim of the returned unit: %+v, %v; want PENDING", res, err)
	}
	if gate.reserved() != before+1 {
		t.Error("the claim after the return was answered without the gate: the board still had the sale sold out")
	}
}

// Returned orders that hold no flash-sale unit never reach the gate; a gate that cannot
// be reached fails the return and opens nothing.
func TestSaleUnitsReturnNothingOrFailing(t *testing.T) {
	t.Parallel()
	gate := &unitsGate{returned: map[int64]bool{}}
	bus := &writerSoldOut{}
	svc := newUnitsService(t, gate, bus)
	ctx := context.Background()
	normal := []domain.VoucherOrder{{ID: 11, UserID: 6, VoucherID: unitsSale, Kind: domain.VoucherNormal}}
	if n, err := svc.Units.ReturnUnits(ctx, unitsSale, normal, false); err != nil || n != 0 {
		t.Fatalf("ReturnUnits of a normal order = %d, %v; want 0, nil", n, err)
	}
	if gate.returnCalls != 0 {
		t.Errorf("the gate was asked %d times for orders without a unit", gate.returnCalls)
	}
	gate.fail = errors.New("redis gone")
	flash := []domain.VoucherOrder{{ID: 10, UserID: 5, VoucherID: unitsSale, Kind: domain.VoucherFlashSale}}
	if _, err := svc.Units.ReturnUnits(ctx, unitsSale, flash, false); !errors.Is(err, gate.fail) {
		t.Errorf("ReturnUnits with the gate gone: %v, want its error", err)
	}
	if !slices.Equal(gate.freeSlot, []bool{false}) {
		t.Errorf("freeSlot passed to the gate %v, want false", gate.freeSlot)
	}
	if got := bus.reopenedCount(); got != 0 {
		t.Errorf("sale announced open again %d times after a failed return, want 0", got)
	}
}

// Live reads the sale's stock and pending claims from the gate.
func TestSaleUnitsLive(t *testing.T) {
	t.Parallel()
	gate := &unitsGate{stock: 3, pending: 2}
	svc := newUnitsService(t, gate, &writerSoldOut{})
	live, err := svc.Units.Live(context.Background(), unitsSale)
	if err != nil {
		t.Fatal(err)
	}
	if want := (orders.LiveSale{Stock: 3, Loaded: true, Pending: 2}); live != want {
		t.Errorf("Live = %+v, want %+v", live, want)
	}
}

// SaleUnits over the in-memory gate meets the contract of the order lifecycle's view of
// a sale (adapters/redis runs it over the Redis gate; orderstest.MemSales meets it too).
func TestSaleUnitsMeetsTheSalesContract(t *testing.T) {
	t.Parallel()
	orderstest.SalesContract(t, func(t *testing.T) orderstest.Sales {
		return seckilltest.SaleUnitsOn(t, seckilltest.NewMemStockGate())
	})
}

// lineRecorder is a sale's waitlist that records the units offered to it and holds none
// anew (those the releases held are reported held).
type lineRecorder struct {
	mu    sync.Mutex
	holds [][]seckill.ReturnedUnit
}

func (l *lineRecorder) Hold(_ context.Context, _ int64, units []seckill.ReturnedUnit) (map[int64]bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.holds = append(l.holds, units)
	held := map[int64]bool{}
	for _, u := range units {
		if u.Held {
			held[u.OrderID] = true
		}
	}
	return held, nil
}

func (l *lineRecorder) HoldDropped(context.Context, int64, seckill.ReturnedUnit) (bool, error) {
	return false, nil
}
func (l *lineRecorder) HeldUnits(context.Context, int64) (int64, error) { return 0, nil }
func (l *lineRecorder) OfferTTL() time.Duration                         { return time.Minute }

// slotGate is unitsGate recording the users whose slots were freed on their own.
type slotGate struct {
	*unitsGate
	freed []int64
}

func (g *slotGate) FreeSlots(_ context.Context, _ int64, users []int64) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.freed = append(g.freed, users...)
	return nil
}

// Of released orders, only the units their releases held for the line (LineHeld) go to
// the waitlist, to be announced — the others are the stock's already and go straight to
// the gate, without a round trip to the waitlist's store each; the held units' users get
// their slots back.
func TestSaleUnitsReturnOffersTheLineOnlyUnitsItsReleasesHeld(t *testing.T) {
	t.Parallel()
	gate := &slotGate{unitsGate: &unitsGate{returned: map[int64]bool{}}}
	svc := newUnitsServiceOn(t, gate, &writerSoldOut{})
	line := &lineRecorder{}
	svc.UseWaitlist(line)
	released := []domain.VoucherOrder{
		{ID: 10, UserID: 5, VoucherID: unitsSale, Kind: domain.VoucherFlashSale, Status: domain.OrderCanceled, LineHeld: true},
		{ID: 12, UserID: 7, VoucherID: unitsSale, Kind: domain.VoucherFlashSale, Status: domain.OrderCanceled},
	}
	n, err := svc.Units.ReturnUnits(context.Background(), unitsSale, released, true)
	if err != nil || n != 1 {
		t.Fatalf("ReturnUnits = %d, %v; want 1 unit back to the stock", n, err)
	}
	if len(line.holds) != 1 || len(line.holds[0]) != 1 || line.holds[0][0].OrderID != 10 {
		t.Errorf("the waitlist was offered %v, want only order 10's unit, once", line.holds)
	}
	if len(gate.returned) != 1 || !gate.returned[12] {
		t.Errorf("the gate got %v, want order 12's unit", gate.returned)
	}
	if !slices.Equal(gate.freed, []int64{5}) {
		t.Errorf("slots freed apart from the gate's return: %v, want user 5's", gate.freed)
	}

	// Nothing held by the releases: the waitlist is not asked at all.
	line.holds = nil
	released = []domain.VoucherOrder{{ID: 13, UserID: 8, VoucherID: unitsSale, Kind: domain.VoucherFlashSale, Status: domain.OrderCanceled}}
	if _, err := svc.Units.ReturnUnits(context.Background(), unitsSale, released, true); err != nil {
		t.Fatal(err)
	}
	if len(line.holds) != 0 {
		t.Errorf("the waitlist was asked %v for units no release held", line.holds)
	}
}
