package seckill_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/app/orders/orderstest"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
)

// writerGate records what the order writer tells the gate; any other call panics (the
// embedded nil interface).
type writerGate struct {
	seckill.SaleStock
	mu      sync.Mutex
	settled map[int64][]int64
	dropped map[int64]seckill.Release
}

func (g *writerGate) Settle(_ context.Context, voucherID int64, ids []int64) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.settled[voucherID] = append(g.settled[voucherID], ids...)
	return nil
}

func (g *writerGate) Drop(_ context.Context, _ int64, orderID int64, rel seckill.Release) (bool, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	_, again := g.dropped[orderID]
	g.dropped[orderID] = rel
	return !again, nil
}

// writerBus records the status events published, by order id and user (two claims
// may share an order id).
type writerBus struct {
	seckill.StatusBus
	mu     sync.Mutex
	events map[[2]int64]domain.OrderEvent
}

func (b *writerBus) Publish(_ context.Context, events ...domain.OrderEvent) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, e := range events {
		b.events[[2]int64{e.OrderID, e.UserID}] = e
	}
	return nil
}

// of returns the event last published for c's order.
func (b *writerBus) of(c domain.Claim) (domain.OrderEvent, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	e, ok := b.events[[2]int64{c.OrderID, c.UserID}]
	return e, ok
}

// writerSoldOut records the sales announced to have stock again.
type writerSoldOut struct {
	mu       sync.Mutex
	reopened []int64
}

func (s *writerSoldOut) Publish(_ context.Context, voucherID int64, soldOut bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !soldOut {
		s.reopened = append(s.reopened, voucherID)
	}
	return nil
}

func (s *writerSoldOut) Subscribe(context.Context, func(int64, bool)) (func(), error) {
	return func() {}, nil
}

// The order writer needs none of these: a call panics.
type (
	noVouchers    struct{ seckill.Vouchers }
	noPublisher   struct{ seckill.ClaimPublisher }
	noIDs         struct{ seckill.IDGenerator }
	noShops       struct{ seckill.ShopOwners }
	noCache       struct{ seckill.VoucherReader }
	noInvalidator struct{ seckill.VoucherInvalidator }
)

// failingWrites is an order store whose batch writes fail.
type failingWrites struct{ orders.OrderStore }

func (failingWrites) WriteClaims(context.Context, []domain.Claim, time.Duration) (orders.BatchResult, error) {
	return orders.BatchResult{}, errors.New("database gone")
}

type writerWorld struct {
	store   *orderstest.Memory
	gate    *writerGate
	bus     *writerBus
	soldOut *writerSoldOut
	writer  *seckill.OrderWriter
}

func newWriterWorld(t *testing.T, store orders.OrderStore) *writerWorld {
	t.Helper()
	w := &writerWorld{gate: &writerGate{settled: map[int64][]int64{}, dropped: map[int64]seckill.Release{}},
		bus: &writerBus{events: map[[2]int64]domain.OrderEvent{}}, soldOut: &writerSoldOut{}}
	if m, ok := store.(*orderstest.Memory); ok {
		w.store = m
	}
	svc, err := seckill.New(t.Context(), seckill.Config{MaxStock: 100, Pages: domain.PageLimits{Default: 10, Max: 100}}, seckill.Deps{
		Vouchers: noVouchers{}, Orders: store, Stock: w.gate, Publisher: noPublisher{}, Republisher: noPublisher{}, IDs: noIDs{},
		Status: w.bus, SoldOut: w.soldOut, Shops: noShops{}, VoucherCache: noCache{}, VoucherChanges: noInvalidator{},
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	w.writer = svc.OrderWriter
	return w
}

func memorySale(m *orderstest.Memory, stock int, payValue int64) domain.Voucher {
	return m.AddVoucher(domain.Voucher{ShopID: 1, Title: "sale", PayValue: payValue, Kind: domain.VoucherFlashSale,
		Status: domain.VoucherOnSale, FlashSale: &domain.FlashSale{Stock: stock}})
}

// ProcessClaims on the in-memory order store: a batch's orders are written as the
// domain says (CREATED, PAID when free), settled in the gate and announced; the claims
// that cannot have an order end FAILED with their unit and slot given back as each
// reason says; a batch delivered again writes nothing twice.
func TestProcessClaimsWritesSettlesAndFails(t *testing.T) {
	t.Parallel()
	m := orderstest.NewMemory()
	w := newWriterWorld(t, m)
	ctx := context.Background()
	sale, free := memorySale(m, 3, 990), memorySale(m, 2, 0)
	claim := func(id, user int64, v domain.Voucher) domain.Claim {
		return domain.Claim{OrderID: id, UserID: user, VoucherID: v.ID, ClaimedAt: time.Now()}
	}
	a, b, d, late := claim(101, 1, sale), claim(102, 2, sale), claim(103, 3, sale), claim(104, 4, sale)
	gift := claim(105, 1, free)
	second := claim(106, 1, sale) // user 1 holds a's order
	stolen := claim(101, 9, sale) // a's order id, answered twice
	batch := []domain.Claim{a, b, gift, second, stolen, d, late}
	if err := w.writer.ProcessClaims(ctx, batch); err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		claim  domain.Claim
		status domain.OrderStatus
		reason string
	}{
		{a, domain.OrderCreated, ""}, {b, domain.OrderCreated, ""}, {d, domain.OrderCreated, ""},
		{gift, domain.OrderPaid, ""},
		{second, domain.OrderFailed, seckill.ReasonDuplicate},
		{late, domain.OrderFailed, seckill.ReasonNoStock},
		{stolen, domain.OrderFailed, seckill.ReasonIDTaken},
	} {
		e, ok := w.bus.of(c.claim)
		if c.claim == stolen {
			// The event names the id, and the order under it stays a's.
			if o, err := m.Order(ctx, a.OrderID); err != nil || o.UserID != a.UserID || o.Status != domain.OrderCreated {
				t.Errorf("order %d after a claim with its id: %+v, %v; want a's, CREATED", a.OrderID, o, err)
			}
		} else if o, err := m.Order(ctx, c.claim.OrderID); err != nil || o.Status != c.status || o.UserID != c.claim.UserID {
			t.Errorf("order %d = %+v, %v; want %s for user %d", c.claim.OrderID, o, err, c.status, c.claim.UserID)
		} else if c.status == domain.OrderPaid && len(o.RedemptionCode) != domain.RedemptionCodeLen {
			t.Errorf("free order %+v has no redemption code", o)
		}
		if !ok || e.Status != c.status || e.Reason != c.reason || e.UserID != c.claim.UserID {
			t.Errorf("event of order %d = %+v (sent %v); want %s, reason %q", c.claim.OrderID, e, ok, c.status, c.reason)
		}
	}

	settled := w.gate.settled[sale.ID]
	slices.Sort(settled)
	if !slices.Equal(settled, []int64{a.OrderID, b.OrderID, d.OrderID}) || !slices.Equal(w.gate.settled[free.ID], []int64{gift.OrderID}) {
		t.Errorf("settled %v, want %d, %d, %d of the sale and %d of the free one", w.gate.settled, a.OrderID, b.OrderID, d.OrderID, gift.OrderID)
	}
	wantDropped := map[int64]seckill.Release{
		second.OrderID: {Stock: true},             // a duplicate gives the unit back, keeps the slot
		late.OrderID:   {Slot: true},              // no database stock: the unit was never there
		stolen.OrderID: {Stock: true, Slot: true}, // nothing was written for it
	}
	if len(w.gate.dropped) != len(wantDropped) {
		t.Errorf("dropped %v, want %v", w.gate.dropped, wantDropped)
	}
	for id, rel := range wantDropped {
		if got, ok := w.gate.dropped[id]; !ok || got != rel {
			t.Errorf("drop of %d = %+v (%v), want %+v", id, got, ok, rel)
		}
	}
	if !slices.Equal(w.soldOut.reopened, []int64{sale.ID, sale.ID}) {
		t.Errorf("sales reopened %v, want %d twice (the duplicate's and the stolen id's units)", w.soldOut.reopened, sale.ID)
	}
	for _, want := range []struct {
		v    domain.Voucher
		left int64
	}{{sale, 0}, {free, 1}} {
		if got, err := m.SaleStock(ctx, want.v.ID); err != nil || got != want.left {
			t.Errorf("database stock of %d = %d, %v; want %d", want.v.ID, got, err, want.left)
		}
	}

	// Delivered again: the orders stand, nothing is taken twice, and they are settled
	// and announced again as they stand.
	clear(w.bus.events)
	clear(w.gate.settled)
	if err := w.writer.ProcessClaims(ctx, []domain.Claim{a, gift}); err != nil {
		t.Fatal(err)
	}
	if ea, _ := w.bus.of(a); ea.Status != domain.OrderCreated {
		t.Errorf("event of %d on redelivery %+v", a.OrderID, ea)
	}
	if eg, _ := w.bus.of(gift); eg.Status != domain.OrderPaid || len(w.bus.events) != 2 {
		t.Errorf("events on redelivery %v", w.bus.events)
	}
	if !slices.Equal(w.gate.settled[sale.ID], []int64{a.OrderID}) || !slices.Equal(w.gate.settled[free.ID], []int64{gift.OrderID}) {
		t.Errorf("settled on redelivery %v", w.gate.settled)
	}
	if got, _ := m.SaleStock(ctx, free.ID); got != 1 {
		t.Errorf("free sale's stock %d after redelivery, want 1", got)
	}
}

// A batch whose write fails is reported and leaves everything else alone: the queue
// delivers it again.
func TestProcessClaimsFailedWriteChangesNothing(t *testing.T) {
	t.Parallel()
	m := orderstest.NewMemory()
	w := newWriterWorld(t, failingWrites{m})
	sale := memorySale(m, 3, 990)
	err := w.writer.ProcessClaims(context.Background(), []domain.Claim{{OrderID: 1, UserID: 1, VoucherID: sale.ID, ClaimedAt: time.Now()}})
	if err == nil {
		t.Fatal("a failed write: no error")
	}
	if len(w.bus.events) != 0 || len(w.gate.settled) != 0 || len(w.gate.dropped) != 0 {
		t.Errorf("a failed write published %v, settled %v, dropped %v", w.bus.events, w.gate.settled, w.gate.dropped)
	}
}
