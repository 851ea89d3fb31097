package orderstest

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/domain"
)

// Sales is an orders.Sales with the ways to set up and look at the sales behind it.
type Sales struct {
	Sales orders.Sales
	// Open makes a live sale as s says, under an id no other case uses, and returns it.
	Open func(t *testing.T, s SaleSetup) int64
	// Holders lists the users who hold a slot of a sale (who may not claim it again).
	Holders func(t *testing.T, voucherID int64) []int64
	// Reopened counts the times a sale was announced open again.
	Reopened func(t *testing.T, voucherID int64) int
}

// SaleSetup is a live sale as a case of SalesContract needs it.
type SaleSetup struct {
	// Stock is the units left.
	Stock int64
	// Holders are the users whose written orders hold a unit and their slot.
	Holders []int64
	// Pending are the users whose accepted claims are not written yet (each holds a unit
	// and the slot too; Stock is what is left after them).
	Pending []int64
}

// SalesContract is what every orders.Sales must do, as its doc comments say (the flash
// sale's SaleUnits on each stock gate, and MemSales). newSales returns the sales; those
// of one test may share their server.
func SalesContract(t *testing.T, newSales func(t *testing.T) Sales) {
	t.Helper()
	for _, c := range []struct {
		name string
		run  func(t *testing.T, s Sales)
	}{
		{"live numbers of a sale; a sale not live reads not loaded", salesLive},
		{"a flash-sale order's unit goes back once per order id, and the sale opens again", salesReturnOnce},
		{"orders that are not flash-sale ones give nothing back", salesReturnNothing},
		{"the user's slot is freed or kept as asked", salesFreeSlot},
		{"a sale not live takes nothing back", salesReturnNotLive},
		{"one order returned from many callers at once goes back once", salesReturnRacing},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.run(t, newSales(t))
		})
	}
}

// flashOrder is a flash-sale order of user's in sale voucherID, released as status says.
func flashOrder(voucherID, user int64, status domain.OrderStatus) domain.VoucherOrder {
	return domain.VoucherOrder{ID: newID(), UserID: user, VoucherID: voucherID, Kind: domain.VoucherFlashSale, Status: status}
}

func (s Sales) live(t *testing.T, voucherID int64) orders.LiveSale {
	t.Helper()
	live, err := s.Sales.Live(context.Background(), voucherID)
	if err != nil {
		t.Fatalf("live numbers of sale %d: %v", voucherID, err)
	}
	return live
}

func (s Sales) giveBack(t *testing.T, voucherID int64, released []domain.VoucherOrder, freeSlot bool) int {
	t.Helper()
	n, err := s.Sales.ReturnUnits(context.Background(), voucherID, released, freeSlot)
	if err != nil {
		t.Fatalf("return units to sale %d: %v", voucherID, err)
	}
	return n
}

func (s Sales) wantStock(t *testing.T, voucherID, want int64) {
	t.Helper()
	if live := s.live(t, voucherID); !live.Loaded || live.Stock != want {
		t.Fatalf("sale %d live %+v, want %d units left, loaded", voucherID, live, want)
	}
}

func (s Sales) wantReopened(t *testing.T, voucherID int64, want int) {
	t.Helper()
	if got := s.Reopened(t, voucherID); got != want {
		t.Fatalf("sale %d announced open again %d times, want %d", voucherID, got, want)
	}
}

func salesLive(t *testing.T, s Sales) {
	v := s.Open(t, SaleSetup{Stock: 3, Holders: []int64{newID()}, Pending: []int64{newID(), newID()}})
	if got, want := s.live(t, v), (orders.LiveSale{Stock: 3, Loaded: true, Pending: 2}); got != want {
		t.Fatalf("live numbers %+v, want %+v", got, want)
	}
	soldOut := s.Open(t, SaleSetup{Holders: []int64{newID()}})
	if got, want := s.live(t, soldOut), (orders.LiveSale{Loaded: true}); got != want {
		t.Fatalf("live numbers of a sold-out sale %+v, want %+v", got, want)
	}
	if got := s.live(t, newID()); got != (orders.LiveSale{}) {
		t.Fatalf("live numbers of a sale not live %+v, want none, not loaded", got)
	}
}

func salesReturnOnce(t *testing.T, s Sales) {
	a, b, c := newID(), newID(), newID()
	v := s.Open(t, SaleSetup{Holders: []int64{a, b, c}})
	first := flashOrder(v, a, domain.OrderCanceled)
	if n := s.giveBack(t, v, []domain.VoucherOrder{first}, false); n != 1 {
		t.Fatalf("units back %d, want 1", n)
	}
	s.wantStock(t, v, 1)
	s.wantReopened(t, v, 1)
	if n := s.giveBack(t, v, []domain.VoucherOrder{first}, false); n != 0 {
		t.Fatalf("units back when returned again %d, want 0", n)
	}
	s.wantStock(t, v, 1)
	s.wantReopened(t, v, 1)
	// A batch with an order returned before gives back the others only.
	more := []domain.VoucherOrder{first, flashOrder(v, b, domain.OrderRefunded), flashOrder(v, c, domain.OrderCanceled)}
	if n := s.giveBack(t, v, more, false); n != 2 {
		t.Fatalf("units back of a batch with one returned before %d, want 2", n)
	}
	s.wantStock(t, v, 3)
	s.wantReopened(t, v, 2)
	if n := s.giveBack(t, v, nil, false); n != 0 {
		t.Fatalf("units back of no order %d, want 0", n)
	}
	s.wantReopened(t, v, 2)
}

func salesReturnNothing(t *testing.T, s Sales) {
	a := newID()
	v := s.Open(t, SaleSetup{Stock: 1, Holders: []int64{a}})
	normal := domain.VoucherOrder{ID: newID(), UserID: a, VoucherID: v, Kind: domain.VoucherNormal, Status: domain.OrderRefunded}
	if n := s.giveBack(t, v, []domain.VoucherOrder{normal}, true); n != 0 {
		t.Fatalf("units back of a normal order %d, want 0", n)
	}
	s.wantStock(t, v, 1)
	s.wantReopened(t, v, 0)
	if !slices.Contains(s.Holders(t, v), a) {
		t.Fatalf("holders %v after a normal order came back, want %d still among them", s.Holders(t, v), a)
	}
}

func salesFreeSlot(t *testing.T, s Sales) {
	freed, kept, other := newID(), newID(), newID()
	v := s.Open(t, SaleSetup{Holders: []int64{freed, kept, other}})
	if n := s.giveBack(t, v, []domain.VoucherOrder{flashOrder(v, freed, domain.OrderCanceled)}, true); n != 1 {
		t.Fatalf("units back %d, want 1", n)
	}
	if n := s.giveBack(t, v, []domain.VoucherOrder{flashOrder(v, kept, domain.OrderCanceled)}, false); n != 1 {
		t.Fatalf("units back %d, want 1", n)
	}
	holders := s.Holders(t, v)
	if slices.Contains(holders, freed) || !slices.Contains(holders, kept) || !slices.Contains(holders, other) {
		t.Fatalf("holders %v, want %d freed, %d and %d kept", holders, freed, kept, other)
	}
	s.wantStock(t, v, 2)
}

func salesReturnNotLive(t *testing.T, s Sales) {
	v := newID()
	if n := s.giveBack(t, v, []domain.VoucherOrder{flashOrder(v, newID(), domain.OrderCanceled)}, true); n != 0 {
		t.Fatalf("units back to a sale not live %d, want 0 (the database has them)", n)
	}
	if got := s.live(t, v); got.Loaded {
		t.Fatalf("a sale not live reads %+v after a return, want it not loaded", got)
	}
	s.wantReopened(t, v, 0)
}

func salesReturnRacing(t *testing.T, s Sales) {
	const callers = 8
	user := newID()
	v := s.Open(t, SaleSetup{Holders: []int64{user}})
	o := flashOrder(v, user, domain.OrderCanceled)
	var total, failed int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range callers {
		wg.Go(func() {
			n, err := s.Sales.ReturnUnits(context.Background(), v, []domain.VoucherOrder{o}, true)
			mu.Lock()
			defer mu.Unlock()
			total += n
			if err != nil {
				failed++
			}
		})
	}
	wg.Wait()
	if failed > 0 || total != 1 {
		t.Fatalf("%d callers returning one order got %d units back (%d failed), want 1", callers, total, failed)
	}
	s.wantStock(t, v, 1)
	s.wantReopened(t, v, 1)
}
