package orderstest

import (
	"cmp"
	"context"
	"maps"
	"slices"
	"sync"

	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/domain"
)

// MemSales is an in-memory orders.Sales: the live sales' stock, slots and pending
// claims, as the flash sale's gate holds them. Like the gate it takes a flash-sale
// order's unit back once per order id, only into a live sale (the database holds the
// units of the others), and counts the times a sale was announced open again.
type MemSales struct {
	mu    sync.Mutex
	sales map[int64]*memLiveSale
	// returned are the units given back, by order id.
	returned map[int64]ReturnedUnit
}

type memLiveSale struct {
	stock    int64
	holders  map[int64]struct{}
	pending  int64
	reopened int
}

// ReturnedUnit is a unit given back to a sale: the order it was of and its user.
type ReturnedUnit struct {
	VoucherID, OrderID, UserID int64
}

var _ orders.Sales = (*MemSales)(nil)

// NewMemSales returns sales none of which is live.
func NewMemSales() *MemSales {
	return &MemSales{sales: map[int64]*memLiveSale{}, returned: map[int64]ReturnedUnit{}}
}

// Open makes sale voucherID live as s says (its stock loaded, as the flash sale does
// when a sale is created or the server starts), replacing what it held.
func (m *MemSales) Open(voucherID int64, s SaleSetup) {
	m.mu.Lock()
	defer m.mu.Unlock()
	sale := &memLiveSale{stock: s.Stock, holders: map[int64]struct{}{}, pending: int64(len(s.Pending))}
	for _, u := range slices.Concat(s.Holders, s.Pending) {
		sale.holders[u] = struct{}{}
	}
	if old := m.sales[voucherID]; old != nil {
		sale.reopened = old.reopened
	}
	m.sales[voucherID] = sale
}

// Take takes a unit of live sale voucherID and the slot of user, as an accepted claim
// whose order is written does (false: the sale is not live, sold out, or the user holds
// a slot).
func (m *MemSales) Take(voucherID, user int64) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.sales[voucherID]
	if s == nil || s.stock <= 0 {
		return false
	}
	if _, held := s.holders[user]; held {
		return false
	}
	s.stock--
	s.holders[user] = struct{}{}
	return true
}

// ReturnUnits implements orders.Sales.
func (m *MemSales) ReturnUnits(_ context.Context, voucherID int64, released []domain.VoucherOrder, freeSlot bool) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.sales[voucherID]
	if s == nil {
		return 0, nil
	}
	n := 0
	for _, o := range released {
		if o.Kind != domain.VoucherFlashSale {
			continue
		}
		if _, again := m.returned[o.ID]; again {
			continue
		}
		m.returned[o.ID] = ReturnedUnit{VoucherID: voucherID, OrderID: o.ID, UserID: o.UserID}
		s.stock++
		if freeSlot {
			delete(s.holders, o.UserID)
		}
		n++
	}
	if n > 0 {
		s.reopened++
	}
	return n, nil
}

// LineHold implements orders.Sales: the memory sales have no waitlists.
func (m *MemSales) LineHold() orders.LineHold { return orders.LineHold{} }

// Live implements orders.Sales.
func (m *MemSales) Live(_ context.Context, voucherID int64) (orders.LiveSale, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.sales[voucherID]
	if s == nil {
		return orders.LiveSale{}, nil
	}
	return orders.LiveSale{Stock: s.stock, Loaded: true, Pending: s.pending}, nil
}

// Holders lists the users who hold a slot of a sale, in order.
func (m *MemSales) Holders(voucherID int64) []int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.sales[voucherID]
	if s == nil {
		return nil
	}
	return slices.Sorted(maps.Keys(s.holders))
}

// Reopened counts the times a sale was announced open again (once per return that gave
// a unit back).
func (m *MemSales) Reopened(voucherID int64) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s := m.sales[voucherID]; s != nil {
		return s.reopened
	}
	return 0
}

// Returned lists the units given back to every sale, by order id.
func (m *MemSales) Returned() []ReturnedUnit {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.SortedFunc(maps.Values(m.returned), func(a, b ReturnedUnit) int { return cmp.Compare(a.OrderID, b.OrderID) })
}
