package seckilltest

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"time"

	"github.com/dealspot/dealspot/internal/app/seckill"
)

// MemStockGate is an in-memory seckill.SaleStock that keeps every sale in one bucket.
// Like the Redis gate it decides each reservation in one step (here under one lock),
// counts each user's claims in one sliding window across every sale, keeps reservations
// through a reload, and versions a sale by its drops, loads and repairs.
type MemStockGate struct {
	mu    sync.Mutex
	sales map[int64]*memSale
	// pending are the reservations by order id, of every sale.
	pending map[int64]seckill.Reservation
	// claims are each user's recent claims (order id and time), oldest first.
	claims map[int64][]memClaim
}

type memSale struct {
	// loaded is false for a sale only given a window (SetWindow before any Load).
	loaded     bool
	stock      int64
	begin, end time.Time
	holders    map[int64]struct{}
	version    int64
	// returned are the orders whose unit came back (ReturnUnits).
	returned map[int64]struct{}
}

type memClaim struct {
	orderID int64
	at      time.Time
}

var _ seckill.SaleStock = (*MemStockGate)(nil)

// NewMemStockGate returns a gate that holds no sale.
func NewMemStockGate() *MemStockGate {
	return &MemStockGate{sales: map[int64]*memSale{}, pending: map[int64]seckill.Reservation{}, claims: map[int64][]memClaim{}}
}

// Reserve implements seckill.SaleStock. Like the Redis gate it is idempotent per order
// id: a claim asked again after it was accepted is accepted again and takes nothing more.
func (g *MemStockGate) Reserve(_ context.Context, r seckill.Reservation) (seckill.Verdict, int64, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	at := r.At.Truncate(time.Millisecond)
	s := g.sales[r.VoucherID]
	// again is a retry of this very claim, already accepted.
	again := func() bool {
		p, ok := g.pending[r.OrderID]
		return ok && p.VoucherID == r.VoucherID && p.UserID == r.UserID
	}
	if lim := r.RateLimit; lim.Max > 0 {
		recent := g.claims[r.UserID]
		cut := 0
		for cut < len(recent) && !recent[cut].at.After(at.Add(-lim.Window)) {
			cut++
		}
		recent = recent[cut:]
		if len(recent) >= lim.Max {
			g.claims[r.UserID] = recent
			if again() {
				return seckill.Accepted, g.stockOf(r.VoucherID), nil
			}
			return seckill.RateLimited, recent[0].at.Add(lim.Window).Sub(at).Milliseconds(), nil
		}
		g.claims[r.UserID] = append(recent, memClaim{orderID: r.OrderID, at: at})
	}
	switch {
	case s == nil || !s.loaded:
		return seckill.NotLoaded, 0, nil
	case at.Before(s.begin):
		return seckill.NotStarted, 0, nil
	case !at.Before(s.end):
		return seckill.Ended, 0, nil
	}
	if _, held := s.holders[r.UserID]; held {
		if again() {
			return seckill.Accepted, s.stock, nil
		}
		return seckill.AlreadyClaimed, s.stock, nil
	}
	if s.stock <= 0 {
		return seckill.SoldOut, 0, nil
	}
	s.stock--
	s.holders[r.UserID] = struct{}{}
	g.pending[r.OrderID] = seckill.Reservation{OrderID: r.OrderID, UserID: r.UserID, VoucherID: r.VoucherID, At: at}
	return seckill.Accepted, s.stock, nil
}

// stockOf is the stock left of a sale (0 when not loaded).
func (g *MemStockGate) stockOf(voucherID int64) int64 {
	if s := g.sales[voucherID]; s != nil && s.loaded {
		return s.stock
	}
	return 0
}

// Drop implements seckill.SaleStock.
func (g *MemStockGate) Drop(_ context.Context, voucherID, orderID int64, rel seckill.Release) (bool, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	p, ok := g.pending[orderID]
	if !ok || p.VoucherID != voucherID {
		return false, nil
	}
	delete(g.pending, orderID)
	if s := g.sales[voucherID]; s != nil {
		if rel.Stock && s.loaded {
			s.stock++
		}
		if rel.Slot {
			delete(s.holders, p.UserID)
		}
		s.version++
	}
	return true, nil
}

// ReturnUnits implements seckill.SaleStock: once per order id, and only to a loaded
// sale, as the Redis gate does.
func (g *MemStockGate) ReturnUnits(_ context.Context, voucherID int64, units []seckill.ReturnedUnit, freeSlot bool) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	s := g.sales[voucherID]
	if s == nil || !s.loaded {
		return 0, nil
	}
	if s.returned == nil {
		s.returned = map[int64]struct{}{}
	}
	n := 0
	for _, u := range units {
		if _, again := s.returned[u.OrderID]; again {
			continue
		}
		s.returned[u.OrderID] = struct{}{}
		s.stock++
		if freeSlot {
			delete(s.holders, u.UserID)
		}
		n++
	}
	if n > 0 {
		s.version++
	}
	return n, nil
}

// TakeSlot implements seckill.SaleStock.
func (g *MemStockGate) TakeSlot(_ context.Context, voucherID, userID int64) (bool, bool, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	s := g.sales[voucherID]
	if s == nil || !s.loaded {
		return false, false, nil
	}
	if _, marked := s.holders[userID]; marked {
		return false, true, nil
	}
	s.holders[userID] = struct{}{}
	s.version++
	return true, true, nil
}

// FreeSlots implements seckill.SaleStock.
func (g *MemStockGate) FreeSlots(_ context.Context, voucherID int64, userIDs []int64) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	s := g.sales[voucherID]
	if s == nil || !s.loaded {
		return nil
	}
	for _, u := range userIDs {
		if _, marked := s.holders[u]; marked {
			delete(s.holders, u)
			s.version++
		}
	}
	return nil
}

// Settle implements seckill.SaleStock.
func (g *MemStockGate) Settle(_ context.Context, voucherID int64, orderIDs []int64) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, id := range orderIDs {
		if p, ok := g.pending[id]; ok && p.VoucherID == voucherID {
			delete(g.pending, id)
		}
	}
	return nil
}

// Load implements seckill.SaleStock. Reservations stay through a load, as in Redis.
func (g *MemStockGate) Load(_ context.Context, st seckill.SaleState, replace bool) (bool, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	s := g.sales[st.VoucherID]
	if s != nil && s.loaded && !replace {
		return false, nil
	}
	if s == nil {
		s = &memSale{}
		g.sales[st.VoucherID] = s
	}
	s.loaded, s.stock, s.begin, s.end = true, st.Stock, st.BeginTime, st.EndTime
	s.holders = make(map[int64]struct{}, len(st.Holders))
	for _, u := range st.Holders {
		s.holders[u] = struct{}{}
	}
	s.version++
	return true, nil
}

// Pending implements seckill.SaleStock.
func (g *MemStockGate) Pending(_ context.Context, orderID int64) (seckill.Reservation, bool, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	p, ok := g.pending[orderID]
	return p, ok, nil
}

// Reservations implements seckill.SaleStock, by order id.
func (g *MemStockGate) Reservations(_ context.Context, voucherID int64) ([]seckill.Reservation, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.reservations(func(r seckill.Reservation) bool { return r.VoucherID == voucherID }), nil
}

// PendingOfUser implements seckill.SaleStock.
func (g *MemStockGate) PendingOfUser(_ context.Context, userID int64) ([]seckill.Reservation, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := g.reservations(func(r seckill.Reservation) bool { return r.UserID == userID })
	slices.Reverse(out)
	return out, nil
}

// reservations lists the pending reservations keep accepts, by order id.
func (g *MemStockGate) reservations(keep func(seckill.Reservation) bool) []seckill.Reservation {
	var out []seckill.Reservation
	for _, r := range g.pending {
		if keep(r) {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b seckill.Reservation) int { return cmp.Compare(a.OrderID, b.OrderID) })
	return out
}

// Stock implements seckill.SaleStock.
func (g *MemStockGate) Stock(_ context.Context, voucherID int64) (int64, bool, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	s := g.sales[voucherID]
	if s == nil || !s.loaded {
		return 0, false, nil
	}
	return s.stock, true, nil
}

// Stocks implements seckill.SaleStock.
func (g *MemStockGate) Stocks(ctx context.Context, sales []seckill.SaleRef) (map[int64]int64, error) {
	out := make(map[int64]int64, len(sales))
	for _, s := range sales {
		if n, ok, _ := g.Stock(ctx, s.VoucherID); ok {
			out[s.VoucherID] = n
		}
	}
	return out, nil
}

// Holders implements seckill.SaleStock.
func (g *MemStockGate) Holders(_ context.Context, voucherID int64) ([]int64, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.holders(voucherID), nil
}

func (g *MemStockGate) holders(voucherID int64) []int64 {
	s := g.sales[voucherID]
	if s == nil {
		return nil
	}
	out := make([]int64, 0, len(s.holders))
	for u := range s.holders {
		out = append(out, u)
	}
	slices.Sort(out)
	return out
}

// SetWindow implements seckill.SaleStock. A sale not loaded stays not loaded.
func (g *MemStockGate) SetWindow(_ context.Context, voucherID int64, begin, end time.Time) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	s := g.sales[voucherID]
	if s == nil {
		s = &memSale{holders: map[int64]struct{}{}}
		g.sales[voucherID] = s
	}
	s.begin, s.end = begin, end
	return nil
}

// Snapshot implements seckill.SaleStock.
func (g *MemStockGate) Snapshot(_ context.Context, voucherID int64) (seckill.GateSnapshot, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	s := g.sales[voucherID]
	if s == nil || !s.loaded {
		return seckill.GateSnapshot{}, nil
	}
	return seckill.GateSnapshot{Loaded: true, Version: s.version, Stock: s.stock, Holders: g.holders(voucherID),
		Reservations: g.reservations(func(r seckill.Reservation) bool { return r.VoucherID == voucherID })}, nil
}

// Repair implements seckill.SaleStock.
func (g *MemStockGate) Repair(_ context.Context, r seckill.GateRepair) (bool, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	s := g.sales[r.VoucherID]
	if s == nil || !s.loaded || s.version != r.Version {
		return false, nil
	}
	for _, id := range r.Remove {
		if p, ok := g.pending[id]; ok && p.VoucherID == r.VoucherID {
			delete(g.pending, id)
		}
	}
	s.stock = max(0, s.stock+r.StockDelta)
	for _, u := range r.AddHolders {
		s.holders[u] = struct{}{}
	}
	for _, u := range r.RemoveHolders {
		delete(s.holders, u)
	}
	s.version++
	return true, nil
}

// CompleteTransfers implements seckill.SaleStock: a sale in one bucket has no transfers.
func (g *MemStockGate) CompleteTransfers(context.Context, int64, time.Time) (int, error) {
	return 0, nil
}
