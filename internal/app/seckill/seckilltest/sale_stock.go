package seckilltest

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/seckill"
)

// SaleStockContract is what every seckill.SaleStock must do, as its doc comments say:
// claim, load, return, inspect and repair, each case through the one port. newStock
// returns a fresh one; those of one test may share their server.
func SaleStockContract(t *testing.T, newStock func(t *testing.T) seckill.SaleStock) {
	t.Helper()
	saleStockContract(t, newStock, false)
}

// SplitSaleStockContract is SaleStockContract for a sale stock that splits every sale
// into buckets: the same, except that Reserve's stock left is its bucket's.
func SplitSaleStockContract(t *testing.T, newStock func(t *testing.T) seckill.SaleStock) {
	t.Helper()
	saleStockContract(t, newStock, true)
}

func saleStockContract(t *testing.T, newStock func(t *testing.T) seckill.SaleStock, split bool) {
	t.Helper()
	for _, c := range []struct {
		name string
		run  func(t *testing.T, g gateCase)
	}{
		{"reserve takes one unit, marks the user and records the reservation", gateReserveAccepts},
		{"reserve answers sold out, already claimed, not started, ended and not loaded", gateReserveVerdicts},
		{"reserve checks the claim rate first and answers the wait", gateReserveRateLimit},
		{"drop gives back what the release says, once", gateDrop},
		{"settle removes the reservations and keeps stock and holders", gateSettle},
		{"load without replace leaves a loaded sale alone; with replace it writes the state", gateLoad},
		{"pending finds a reservation by its order id alone", gatePending},
		{"set window moves the window and keeps stock and holders", gateSetWindow},
		{"snapshot reads the sale; an unloaded sale is not loaded", gateSnapshot},
		{"stocks reads the stock left of many sales at once, leaving out those not loaded", gateStocks},
		{"repair applies only to the snapshot it was computed from", gateRepair},
		{"units of released orders go back once per order; a freed slot lets the user claim again", gateReturnUnits},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.run(t, gateCase{SaleStock: newStock(t), ctx: context.Background(), now: time.Now().Truncate(time.Millisecond), split: split})
		})
	}
}

type gateCase struct {
	seckill.SaleStock
	ctx context.Context
	now time.Time
	// split: the gate splits sales into buckets.
	split bool
}

// open loads a sale open for an hour around now and returns its id.
func (g gateCase) open(t *testing.T, stock int64, holders ...int64) int64 {
	t.Helper()
	v := newID()
	g.load(t, seckill.SaleState{VoucherID: v, Stock: stock, BeginTime: g.now.Add(-time.Hour), EndTime: g.now.Add(time.Hour), Holders: holders}, true)
	return v
}

func (g gateCase) load(t *testing.T, s seckill.SaleState, replace bool) bool {
	t.Helper()
	ok, err := g.Load(g.ctx, s, replace)
	if err != nil {
		t.Fatalf("load %+v: %v", s, err)
	}
	return ok
}

// reserve asks for a unit for user with a new order id and returns the order id.
func (g gateCase) reserve(t *testing.T, voucher, user int64, want seckill.Verdict) int64 {
	t.Helper()
	order := newID()
	got, _, err := g.Reserve(g.ctx, seckill.Reservation{OrderID: order, UserID: user, VoucherID: voucher, At: g.now})
	if err != nil || got != want {
		t.Fatalf("reserve voucher %d for user %d: verdict %v, %v; want %v", voucher, user, got, err, want)
	}
	return order
}

func (g gateCase) wantStock(t *testing.T, voucher, want int64) {
	t.Helper()
	if n, ok, err := g.Stock(g.ctx, voucher); err != nil || !ok || n != want {
		t.Fatalf("stock of %d = %d (loaded %v, %v), want %d", voucher, n, ok, err, want)
	}
}

func (g gateCase) wantHolders(t *testing.T, voucher int64, want ...int64) {
	t.Helper()
	got, err := g.Holders(g.ctx, voucher)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("holders of %d = %v, want %v", voucher, got, want)
	}
}

func (g gateCase) wantReservations(t *testing.T, voucher int64, want ...int64) {
	t.Helper()
	rs, err := g.Reservations(g.ctx, voucher)
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	for _, r := range rs {
		got = append(got, r.OrderID)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("reservations of %d = %v, want %v", voucher, got, want)
	}
}

func (g gateCase) wantPending(t *testing.T, order int64, want bool) {
	t.Helper()
	if _, ok, err := g.Pending(g.ctx, order); err != nil || ok != want {
		t.Fatalf("pending %d = %v (%v), want %v", order, ok, err, want)
	}
}

func gateReserveAccepts(t *testing.T, g gateCase) {
	v, user, order := g.open(t, 3), newID(), newID()
	r := seckill.Reservation{OrderID: order, UserID: user, VoucherID: v, At: g.now}
	if got, left, err := g.Reserve(g.ctx, r); err != nil || got != seckill.Accepted || left != 2 && !(g.split && left >= 0 && left < 2) {
		t.Fatalf("reserve: %v, %d left, %v; want accepted with 2 left", got, left, err)
	}
	g.wantStock(t, v, 2)
	g.wantHolders(t, v, user)
	rs, err := g.Reservations(g.ctx, v)
	if err != nil || len(rs) != 1 || rs[0].OrderID != order || rs[0].UserID != user || rs[0].VoucherID != v || !rs[0].At.Equal(g.now) {
		t.Fatalf("reservations = %+v, %v; want %+v", rs, err, r)
	}
}

func gateReserveVerdicts(t *testing.T, g gateCase) {
	holder := newID()
	v := g.open(t, 1, holder)
	g.reserve(t, v, holder, seckill.AlreadyClaimed) // a holder named at load
	first := newID()
	g.reserve(t, v, first, seckill.Accepted)
	g.reserve(t, v, first, seckill.AlreadyClaimed) // a second order of a holder
	g.reserve(t, v, newID(), seckill.SoldOut)
	g.wantStock(t, v, 0)
	g.wantHolders(t, v, holder, first)

	later := newID()
	g.load(t, seckill.SaleState{VoucherID: later, Stock: 5, BeginTime: g.now.Add(time.Minute), EndTime: g.now.Add(time.Hour)}, true)
	g.reserve(t, later, newID(), seckill.NotStarted)
	over := newID()
	g.load(t, seckill.SaleState{VoucherID: over, Stock: 5, BeginTime: g.now.Add(-time.Hour), EndTime: g.now}, true)
	g.reserve(t, over, newID(), seckill.Ended)
	for _, s := range []int64{later, over} {
		g.wantStock(t, s, 5)
		g.wantHolders(t, s)
		g.wantReservations(t, s)
	}

	unknown := newID()
	g.reserve(t, unknown, newID(), seckill.NotLoaded)
	if _, ok, err := g.Stock(g.ctx, unknown); err != nil || ok {
		t.Fatalf("stock of a sale never loaded: loaded %v, %v", ok, err)
	}
}

func gateReserveRateLimit(t *testing.T, g gateCase) {
	v, user := g.open(t, 5), newID()
	limit := seckill.RateLimit{Max: 1, Window: time.Minute}
	if got, _, err := g.Reserve(g.ctx, seckill.Reservation{OrderID: newID(), UserID: user, VoucherID: v, At: g.now, RateLimit: limit}); err != nil || got != seckill.Accepted {
		t.Fatalf("first claim: %v, %v", got, err)
	}
	// The holder's next claim is counted before the user is checked.
	got, wait, err := g.Reserve(g.ctx, seckill.Reservation{OrderID: newID(), UserID: user, VoucherID: v, At: g.now.Add(time.Second), RateLimit: limit})
	if err != nil || got != seckill.RateLimited || wait <= 0 || wait > limit.Window.Milliseconds() {
		t.Fatalf("second claim within the window: %v, wait %d ms, %v; want rate limited with a wait within the window", got, wait, err)
	}
	g.wantStock(t, v, 4)
	// Max 0 is no limit.
	other := newID()
	for range 3 {
		if got, _, err := g.Reserve(g.ctx, seckill.Reservation{OrderID: newID(), UserID: other, VoucherID: v, At: g.now}); err != nil || got == seckill.RateLimited {
			t.Fatalf("claim without a limit: %v, %v", got, err)
		}
	}
}

func gateDrop(t *testing.T, g gateCase) {
	v := g.open(t, 3)
	users := []int64{newID(), newID(), newID()}
	var orders []int64
	for _, u := range users {
		orders = append(orders, g.reserve(t, v, u, seckill.Accepted))
	}
	g.wantStock(t, v, 0)
	drop := func(voucher, order int64, rel seckill.Release, want bool) {
		t.Helper()
		if ok, err := g.Drop(g.ctx, voucher, order, rel); err != nil || ok != want {
			t.Fatalf("drop %d of %d with %+v: %v, %v; want %v", order, voucher, rel, ok, err, want)
		}
	}
	// Stock and slot: the unit goes back and the user may claim again.
	drop(v, orders[0], seckill.Release{Stock: true, Slot: true}, true)
	g.wantStock(t, v, 1)
	g.wantHolders(t, v, users[1], users[2])
	g.wantReservations(t, v, orders[1], orders[2])
	g.wantPending(t, orders[0], false)
	drop(v, orders[0], seckill.Release{Stock: true, Slot: true}, false) // gone already: nothing given back twice
	g.wantStock(t, v, 1)
	// Neither: the reservation goes, the unit stays taken and the user stays a holder.
	drop(v, orders[1], seckill.Release{}, true)
	g.wantStock(t, v, 1)
	g.wantHolders(t, v, users[1], users[2])
	g.reserve(t, v, users[1], seckill.AlreadyClaimed)
	// Slot only.
	drop(v, orders[2], seckill.Release{Slot: true}, true)
	g.wantStock(t, v, 1)
	g.wantHolders(t, v, users[1])
	g.wantReservations(t, v)
	// Stock only, and a drop naming another sale does nothing.
	order := g.reserve(t, v, users[2], seckill.Accepted)
	drop(g.open(t, 1), order, seckill.Release{Stock: true, Slot: true}, false)
	g.wantPending(t, order, true)
	drop(v, order, seckill.Release{Stock: true}, true)
	g.wantStock(t, v, 1)
	g.wantHolders(t, v, users[1], users[2])
	drop(v, newID(), seckill.Release{Stock: true, Slot: true}, false)
	g.wantStock(t, v, 1)
}

func gateSettle(t *testing.T, g gateCase) {
	v := g.open(t, 5)
	u1, u2 := newID(), newID()
	o1, o2 := g.reserve(t, v, u1, seckill.Accepted), g.reserve(t, v, u2, seckill.Accepted)
	if err := g.Settle(g.ctx, v, []int64{o1, newID()}); err != nil {
		t.Fatal(err)
	}
	if err := g.Settle(g.ctx, v, nil); err != nil {
		t.Fatal(err)
	}
	g.wantPending(t, o1, false)
	g.wantPending(t, o2, true)
	g.wantReservations(t, v, o2)
	g.wantStock(t, v, 3)
	g.wantHolders(t, v, u1, u2)
	if ok, err := g.Drop(g.ctx, v, o1, seckill.Release{Stock: true, Slot: true}); err != nil || ok {
		t.Fatalf("drop of a settled reservation: %v, %v; want false", ok, err)
	}
	g.wantStock(t, v, 3)
}

func gateLoad(t *testing.T, g gateCase) {
	v, a, b := newID(), newID(), newID()
	state := seckill.SaleState{VoucherID: v, Stock: 5, BeginTime: g.now.Add(-time.Hour), EndTime: g.now.Add(time.Hour), Holders: []int64{a}}
	if !g.load(t, state, false) {
		t.Fatal("load of a sale not loaded: false, want true")
	}
	g.wantStock(t, v, 5)
	g.wantHolders(t, v, a)
	again := state
	again.Stock, again.Holders, again.BeginTime = 9, []int64{b}, g.now.Add(time.Hour)
	if g.load(t, again, false) {
		t.Fatal("load without replace of a loaded sale: true, want false")
	}
	g.wantStock(t, v, 5)
	g.wantHolders(t, v, a)
	g.reserve(t, v, newID(), seckill.Accepted) // the window is still the first one
	if !g.load(t, again, true) {
		t.Fatal("load with replace: false, want true")
	}
	g.wantStock(t, v, 9)
	g.wantHolders(t, v, b)
	g.reserve(t, v, newID(), seckill.NotStarted)
}

func gatePending(t *testing.T, g gateCase) {
	v1, v2 := g.open(t, 5), g.open(t, 5)
	user := newID()
	o1, o2 := g.reserve(t, v1, user, seckill.Accepted), g.reserve(t, v2, user, seckill.Accepted)
	for order, voucher := range map[int64]int64{o1: v1, o2: v2} {
		r, ok, err := g.Pending(g.ctx, order)
		if err != nil || !ok || r.OrderID != order || r.VoucherID != voucher || r.UserID != user || !r.At.Equal(g.now) {
			t.Fatalf("pending %d = %+v, %v, %v; want the reservation of voucher %d", order, r, ok, err, voucher)
		}
	}
	g.wantPending(t, newID(), false)
}

func gateSetWindow(t *testing.T, g gateCase) {
	holder := newID()
	v := g.open(t, 5, holder)
	if err := g.SetWindow(g.ctx, v, g.now.Add(time.Minute), g.now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	g.reserve(t, v, newID(), seckill.NotStarted)
	if err := g.SetWindow(g.ctx, v, g.now.Add(-time.Hour), g.now); err != nil {
		t.Fatal(err)
	}
	g.reserve(t, v, newID(), seckill.Ended)
	g.wantStock(t, v, 5)
	g.wantHolders(t, v, holder)
	if err := g.SetWindow(g.ctx, v, g.now.Add(-time.Hour), g.now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	g.reserve(t, v, newID(), seckill.Accepted)
}

func gateSnapshot(t *testing.T, g gateCase) {
	snap, err := g.Snapshot(g.ctx, newID())
	if err != nil || snap.Loaded {
		t.Fatalf("snapshot of a sale never loaded: %+v, %v; want not loaded", snap, err)
	}
	holder, user := newID(), newID()
	v := g.open(t, 4, holder)
	order := g.reserve(t, v, user, seckill.Accepted)
	snap, err = g.Snapshot(g.ctx, v)
	if err != nil || !snap.Loaded || snap.Stock != 3 || len(snap.Reservations) != 1 || snap.Reservations[0].OrderID != order ||
		snap.Reservations[0].UserID != user || len(snap.Holders) != 2 {
		t.Fatalf("snapshot: %+v, %v; want 3 left, the reservation of %d and 2 holders", snap, err, order)
	}
}

func gateStocks(t *testing.T, g gateCase) {
	if m, err := g.Stocks(g.ctx, nil); err != nil || len(m) != 0 {
		t.Fatalf("stocks of no sale: %v, %v", m, err)
	}
	a, b, never := g.open(t, 4), g.open(t, 7), newID()
	g.reserve(t, a, newID(), seckill.Accepted)
	m, err := g.Stocks(g.ctx, []seckill.SaleRef{{VoucherID: a}, {VoucherID: never}, {VoucherID: b}})
	if err != nil || len(m) != 2 || m[a] != 3 || m[b] != 7 {
		t.Fatalf("stocks = %v, %v; want %d: 3, %d: 7 and no sale never loaded", m, err, a, b)
	}
}

func gateRepair(t *testing.T, g gateCase) {
	old := newID()
	v := g.open(t, 10, old)
	u1, u2, u3, added := newID(), newID(), newID(), newID()
	o1, o2 := g.reserve(t, v, u1, seckill.Accepted), g.reserve(t, v, u2, seckill.Accepted)
	snap, err := g.Snapshot(g.ctx, v)
	if err != nil || !snap.Loaded || snap.Stock != 8 || len(snap.Reservations) != 2 || len(snap.Holders) != 3 {
		t.Fatalf("snapshot: %+v %v", snap, err)
	}
	// A reserve after the snapshot does not refuse the repair; its unit stays taken.
	o3 := g.reserve(t, v, u3, seckill.Accepted)
	repair := func(r seckill.GateRepair, want bool) {
		t.Helper()
		r.VoucherID = v
		if ok, err := g.Repair(g.ctx, r); err != nil || ok != want {
			t.Fatalf("repair %+v: %v, %v; want %v", r, ok, err, want)
		}
	}
	repair(seckill.GateRepair{Version: snap.Version, Versions: snap.Versions, StockDelta: -2, Remove: []int64{o1}, AddHolders: []int64{added}, RemoveHolders: []int64{old}}, true)
	after, err := g.Snapshot(g.ctx, v)
	if err != nil || after.Stock != 5 || after.Version == snap.Version {
		t.Fatalf("after the repair: %+v, %v; want 5 left and a new version", after, err)
	}
	g.wantReservations(t, v, o2, o3)
	g.wantHolders(t, v, u1, u2, u3, added)
	// The old snapshot is refused now (a repair since).
	repair(seckill.GateRepair{Version: snap.Version, Versions: snap.Versions, StockDelta: 1}, false)
	// A settle since the snapshot does not refuse it.
	cur, _ := g.Snapshot(g.ctx, v)
	if err := g.Settle(g.ctx, v, []int64{o2}); err != nil {
		t.Fatal(err)
	}
	repair(seckill.GateRepair{Version: cur.Version, Versions: cur.Versions, StockDelta: 1}, true)
	// A drop since the snapshot refuses it.
	cur, _ = g.Snapshot(g.ctx, v)
	if _, err := g.Drop(g.ctx, v, o3, seckill.Release{Stock: true, Slot: true}); err != nil {
		t.Fatal(err)
	}
	repair(seckill.GateRepair{Version: cur.Version, Versions: cur.Versions, StockDelta: 1}, false)
	// A load since the snapshot refuses it.
	cur, _ = g.Snapshot(g.ctx, v)
	g.load(t, seckill.SaleState{VoucherID: v, Stock: 7, BeginTime: g.now.Add(-time.Hour), EndTime: g.now.Add(time.Hour)}, true)
	repair(seckill.GateRepair{Version: cur.Version, Versions: cur.Versions, StockDelta: 1}, false)
	g.wantStock(t, v, 7)
	// The stock never goes below zero by a repair.
	cur, _ = g.Snapshot(g.ctx, v)
	repair(seckill.GateRepair{Version: cur.Version, Versions: cur.Versions, StockDelta: -100}, true)
	g.wantStock(t, v, 0)
}

// gateReturnUnits: units of canceled orders go back once per order, however often (and
// however concurrently) they are returned; freeing the slot lets the user claim again;
// a sale the gate does not hold is left alone.
func gateReturnUnits(t *testing.T, g gateCase) {
	v := g.open(t, 2)
	u1, u2, u3 := newID(), newID(), newID()
	o1, o2 := g.reserve(t, v, u1, seckill.Accepted), g.reserve(t, v, u2, seckill.Accepted)
	g.reserve(t, v, u3, seckill.SoldOut)
	if err := g.Settle(g.ctx, v, []int64{o1, o2}); err != nil {
		t.Fatal(err)
	}
	// Order 1 canceled (slot freed), returned from 20 goroutines at once.
	var wg sync.WaitGroup
	var total atomic.Int64
	for range 20 {
		wg.Go(func() {
			n, err := g.ReturnUnits(g.ctx, v, []seckill.ReturnedUnit{{OrderID: o1, UserID: u1}}, true)
			if err != nil {
				t.Error(err)
			}
			total.Add(int64(n))
		})
	}
	wg.Wait()
	if total.Load() != 1 {
		t.Fatalf("order 1's unit came back %d times", total.Load())
	}
	g.wantStock(t, v, 1)
	// Order 2 refunded with the slot kept: its user stays refused.
	if n, err := g.ReturnUnits(g.ctx, v, []seckill.ReturnedUnit{{OrderID: o2, UserID: u2}}, false); err != nil || n != 1 {
		t.Fatalf("return order 2: %d, %v", n, err)
	}
	g.reserve(t, v, u2, seckill.AlreadyClaimed)
	g.reserve(t, v, u1, seckill.Accepted)
	g.reserve(t, v, u3, seckill.Accepted)
	if pending, err := g.Reservations(g.ctx, v); err != nil || len(pending) != 2 {
		t.Errorf("pending %d, %v; want the 2 new reservations", len(pending), err)
	}
	// A sale the gate does not hold is left alone.
	if n, err := g.ReturnUnits(g.ctx, newID(), []seckill.ReturnedUnit{{OrderID: newID(), UserID: newID()}}, true); err != nil || n != 0 {
		t.Errorf("return to a sale not loaded: %d, %v", n, err)
	}
}
