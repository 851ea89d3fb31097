package orderstest

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/domain"
)

// Memory is an in-memory orders.OrderStore: the order rows, the vouchers they are of
// (price, shop and a flash sale's stock) and the orders' payments, behind one lock, so
// every call is one atomic step as a transaction is. A Transition moves the payment it
// names (orders.PaymentMove) when the order's move wins; the payments themselves are
// reached through NewMemoryPayments.
type Memory struct {
	mu       sync.Mutex
	orders   map[int64]domain.VoucherOrder
	vouchers map[int64]domain.Voucher
	payments map[int64]domain.Payment
	// sold is each shop's sold count, as the orders moved it.
	sold map[int64]int64
	// redeemed holds the units of each redemption made under a request id.
	redeemed map[redeemKey]int
}

// redeemKey names one order's redemption under a client's request id.
type redeemKey struct {
	orderID   int64
	requestID string
}

var _ orders.OrderStore = (*Memory)(nil)

// NewMemory returns an empty store.
func NewMemory() *Memory {
	return &Memory{orders: map[int64]domain.VoucherOrder{}, vouchers: map[int64]domain.Voucher{}, payments: map[int64]domain.Payment{},
		sold: map[int64]int64{}, redeemed: map[redeemKey]int{}}
}

// AddVoucher stores v (its flash sale's stock is what WriteClaims takes from) under its
// id, or a new one when it has none (0), and returns it.
func (m *Memory) AddVoucher(v domain.Voucher) domain.Voucher {
	m.mu.Lock()
	defer m.mu.Unlock()
	if v.ID == 0 {
		v.ID = newID()
	}
	if v.FlashSale != nil {
		fs := *v.FlashSale
		fs.VoucherID = v.ID
		v.FlashSale = &fs
	}
	m.vouchers[v.ID] = v
	return v
}

// liveFlash reports whether o is a flash-sale order that holds its user's one slot of
// the sale (the relational store's partial unique index).
func liveFlash(o domain.VoucherOrder) bool {
	return o.Kind == domain.VoucherFlashSale && o.Status.HoldsUnit()
}

// insert adds o unless its id is taken or it is a second live flash-sale order of its
// user; it reports whether it went in.
func (m *Memory) insert(o domain.VoucherOrder) bool {
	if _, taken := m.orders[o.ID]; taken {
		return false
	}
	if liveFlash(o) {
		for _, x := range m.orders {
			if liveFlash(x) && x.UserID == o.UserID && x.VoucherID == o.VoucherID {
				return false
			}
		}
	}
	m.orders[o.ID] = o
	return true
}

// newClaimOrder is c's order as the writer writes it, in status st (PENDING: as the
// domain's write action says).
func (m *Memory) newClaimOrder(c domain.Claim, st domain.OrderStatus, now time.Time, payWithin time.Duration) domain.VoucherOrder {
	v := m.vouchers[c.VoucherID]
	created := c.ClaimedAt
	if created.IsZero() {
		created = now
	}
	o := domain.VoucherOrder{ID: c.OrderID, UserID: c.UserID, VoucherID: c.VoucherID, ShopID: v.ShopID, Kind: domain.VoucherFlashSale,
		Quantity: 1, Amount: v.PayValue, Status: st, CreatedAt: created}
	if st != domain.OrderPending {
		return o
	}
	o.Status, _ = o.Written()
	switch {
	case o.Status == domain.OrderPaid:
		o.PayTime, o.RedemptionCode = &now, domain.NewRedemptionCode()
	case payWithin > 0:
		deadline := domain.PayDeadline(created, payWithin)
		o.PayDeadline = &deadline
	}
	return o
}

// Sold returns a shop's sold count: the units of its PAID and USED orders, less those
// refunded, as the store's moves counted them.
func (m *Memory) Sold(shopID int64) int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.sold[shopID]
}

// addSold moves the sold count of o's shop by n units, never below zero.
func (m *Memory) addSold(o domain.VoucherOrder, n int) {
	shop := o.ShopID
	if shop == 0 {
		shop = m.vouchers[o.VoucherID].ShopID
	}
	m.sold[shop] = max(m.sold[shop]+int64(n), 0)
}

// stock is a pointer to the voucher's flash-sale stock (nil: not a flash sale).
func (m *Memory) stock(voucherID int64) *int {
	if v, ok := m.vouchers[voucherID]; ok && v.FlashSale != nil {
		return &v.FlashSale.Stock
	}
	return nil
}

// WriteClaims implements orders.OrderStore.
func (m *Memory) WriteClaims(_ context.Context, claims []domain.Claim, payWithin time.Duration) (orders.BatchResult, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	res := orders.BatchResult{Status: map[int64]domain.OrderStatus{}}
	inserted := map[int64]bool{}
	newByVoucher := map[int64][]domain.Claim{}
	for _, c := range claims {
		if m.insert(m.newClaimOrder(c, domain.OrderPending, now, payWithin)) {
			inserted[c.OrderID] = true
			newByVoucher[c.VoucherID] = append(newByVoucher[c.VoucherID], c)
		}
	}
	noStock := map[int64]domain.Claim{}
	for vid, cs := range newByVoucher {
		left := 0
		if st := m.stock(vid); st != nil {
			left = *st
			*st -= min(left, len(cs))
		}
		for _, c := range cs[min(left, len(cs)):] {
			noStock[c.OrderID] = c
			delete(m.orders, c.OrderID)
		}
	}
	for id := range inserted {
		if o, ok := m.orders[id]; ok && o.Status == domain.OrderPaid {
			m.addSold(o, o.Quantity)
		}
	}
	mine := func(c domain.Claim) (domain.VoucherOrder, bool) {
		o, ok := m.orders[c.OrderID]
		return o, ok && o.UserID == c.UserID && o.VoucherID == c.VoucherID
	}
	for _, c := range claims {
		o, ok := mine(c)
		_, taken := m.orders[c.OrderID]
		switch {
		case noStock[c.OrderID].UserID == c.UserID && noStock[c.OrderID].VoucherID == c.VoucherID && inserted[c.OrderID]:
			res.NoStock = append(res.NoStock, c)
		case ok && o.Status != domain.OrderFailed:
			res.Created = append(res.Created, c)
			res.Status[c.OrderID] = o.Status
		case ok:
			res.Duplicate = append(res.Duplicate, c)
		case taken:
			res.IDTaken = append(res.IDTaken, c)
		default:
			res.Duplicate = append(res.Duplicate, c)
		}
	}
	return res, nil
}

// FailClaim implements orders.OrderStore.
func (m *Memory) FailClaim(_ context.Context, c domain.Claim, reason string) (domain.VoucherOrder, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	o := m.newClaimOrder(c, domain.OrderFailed, time.Now(), 0)
	if utf8.RuneCountInString(reason) > 255 {
		reason = string([]rune(reason)[:255])
	}
	o.FailReason = reason
	m.insert(o)
	return m.orders[c.OrderID], nil
}

// CreateOrder implements orders.OrderStore.
func (m *Memory) CreateOrder(_ context.Context, o domain.VoucherOrder) (domain.VoucherOrder, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if o.ID <= 0 {
		return domain.VoucherOrder{}, domain.Errorf(domain.CodeBadUserInput, "order id must be positive")
	}
	if o.Status == "" {
		o.Status = domain.OrderCreated
	}
	if !o.Status.Valid() {
		return domain.VoucherOrder{}, domain.Errorf(domain.CodeBadUserInput, "unknown order status %q", o.Status)
	}
	if o.Kind == "" {
		o.Kind = domain.VoucherFlashSale
	}
	o.Quantity = max(o.Quantity, 1)
	if o.CreatedAt.IsZero() {
		o.CreatedAt = time.Now()
	}
	if !m.insert(o) {
		return domain.VoucherOrder{}, domain.Errorf(domain.CodeConflict, "order already exists")
	}
	if o.Status == domain.OrderPaid || o.Status == domain.OrderUsed {
		m.addSold(o, o.Quantity)
	}
	return o, nil
}

// Order implements orders.OrderStore.
func (m *Memory) Order(_ context.Context, id int64) (domain.VoucherOrder, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	o, ok := m.orders[id]
	if !ok {
		return domain.VoucherOrder{}, domain.ErrNotFound
	}
	return o, nil
}

// OrderByCode implements orders.OrderStore.
func (m *Memory) OrderByCode(_ context.Context, code string) (domain.VoucherOrder, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, o := range m.orders {
		if code != "" && o.RedemptionCode == code {
			return o, nil
		}
	}
	return domain.VoucherOrder{}, domain.ErrNotFound
}

// WrittenOrders implements orders.OrderStore.
func (m *Memory) WrittenOrders(_ context.Context, ids []int64) ([]int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []int64
	for _, id := range ids {
		if _, ok := m.orders[id]; ok {
			out = append(out, id)
		}
	}
	return out, nil
}

// page lists up to limit orders that keep says to, with id < before (0: any) and a
// status in statuses (empty: any), newest first.
func (m *Memory) page(keep func(domain.VoucherOrder) bool, statuses []domain.OrderStatus, before int64, limit int) []domain.VoucherOrder {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []domain.VoucherOrder
	for _, o := range m.orders {
		if keep(o) && (before <= 0 || o.ID < before) && (len(statuses) == 0 || slices.Contains(statuses, o.Status)) {
			out = append(out, o)
		}
	}
	slices.SortFunc(out, func(a, b domain.VoucherOrder) int { return cmp.Compare(b.ID, a.ID) })
	return out[:min(len(out), max(limit, 0))]
}

// OrdersOfUser implements orders.OrderStore.
func (m *Memory) OrdersOfUser(_ context.Context, userID int64, statuses []domain.OrderStatus, before int64, limit int) ([]domain.VoucherOrder, error) {
	return m.page(func(o domain.VoucherOrder) bool { return o.UserID == userID }, statuses, before, limit), nil
}

// OrdersOfShop implements orders.OrderStore.
func (m *Memory) OrdersOfShop(_ context.Context, shopID int64, statuses []domain.OrderStatus, before int64, limit int) ([]domain.VoucherOrder, error) {
	return m.page(func(o domain.VoucherOrder) bool { return o.ShopID == shopID }, statuses, before, limit), nil
}

// released reports whether s is the status of an order that gave its unit back.
func released(s domain.OrderStatus) bool {
	return s == domain.OrderCanceled || s == domain.OrderRefunded
}

// LiveHolders implements orders.OrderStore.
func (m *Memory) LiveHolders(_ context.Context, voucherID int64, withReleased bool) ([]int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []int64
	for _, o := range m.orders {
		if o.VoucherID == voucherID && (o.Status.HoldsUnit() || (withReleased && released(o.Status))) && !slices.Contains(out, o.UserID) {
			out = append(out, o.UserID)
		}
	}
	return out, nil
}

// SaleStock implements orders.OrderStore.
func (m *Memory) SaleStock(_ context.Context, voucherID int64) (int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	st := m.stock(voucherID)
	if st == nil {
		return 0, domain.ErrNotFound
	}
	return int64(*st), nil
}

// CountOrders implements orders.OrderStore.
func (m *Memory) CountOrders(_ context.Context, voucherID int64) (orders.OrderCounts, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var c orders.OrderCounts
	users := map[int64]bool{}
	for _, o := range m.orders {
		switch {
		case o.VoucherID != voucherID:
		case o.Status.HoldsUnit():
			c.Created++
			users[o.UserID] = true
		case o.Status == domain.OrderFailed:
			c.Failed++
		case released(o.Status):
			c.Released++
		}
	}
	c.LiveUsers = int64(len(users))
	return c, nil
}

// CountByStatus implements orders.OrderStore.
func (m *Memory) CountByStatus(_ context.Context, voucherID int64, since time.Time) (map[domain.OrderStatus]int64, int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	counts := map[domain.OrderStatus]int64{}
	var recent int64
	for _, o := range m.orders {
		if o.VoucherID == voucherID {
			counts[o.Status]++
			if !o.CreatedAt.Before(since) {
				recent++
			}
		}
	}
	return counts, recent, nil
}

// move applies t to o (whose status is in t.From), giving a flash sale's unit back
// when t says so, moving the shop's sold count and the payment t names (if its status
// is in the move's From). A redemption of fewer units than are left keeps o PAID; false
// when fewer than t.Units are left (nothing moved).
func (m *Memory) move(o domain.VoucherOrder, t orders.Transition) (domain.VoucherOrder, bool) {
	at := t.At
	left := max(o.Quantity, 1) - o.RedeemedQuantity
	to := t.To
	if to == domain.OrderUsed {
		n := t.Units
		if n <= 0 {
			n = left
		}
		if n > left {
			return o, false
		}
		o.RedeemedQuantity += n
		if n < left {
			to = o.Status
		}
	}
	from := o.Status
	o.Status = to
	switch t.To {
	case domain.OrderPaid:
		o.PayTime, o.RedemptionCode = &at, t.RedemptionCode
	case domain.OrderUsed:
		o.UseTime = &at
	case domain.OrderCanceled:
		o.CanceledAt, o.CancelReason = &at, t.CancelReason
	case domain.OrderRefunded:
		o.RefundTime, o.RefundReason = &at, t.RefundReason
	}
	switch {
	case to == domain.OrderPaid && from != domain.OrderPaid:
		m.addSold(o, max(o.Quantity, 1))
	case to == domain.OrderRefunded:
		m.addSold(o, -left)
	}
	if st := m.stock(o.VoucherID); t.ReturnUnit && o.Kind == domain.VoucherFlashSale && !t.To.HoldsUnit() && st != nil {
		*st += left
	}
	if pm := t.Payment; pm != nil {
		if p, ok := m.payments[pm.PaymentID]; ok && slices.Contains(pm.From, p.Status) {
			p.Status = pm.To
			if pm.Reason != "" {
				p.RefundReason = pm.Reason
			}
			if pm.Refund {
				p.RefundAmount = o.RefundAmount()
			}
			m.payments[p.ID] = p
		}
	}
	m.orders[o.ID] = o
	return o, true
}

// Transition implements orders.OrderStore.
func (m *Memory) Transition(_ context.Context, t orders.Transition) (domain.VoucherOrder, bool, error) {
	if len(t.From) == 0 {
		return domain.VoucherOrder{}, false, errors.New("transition: no status to move from")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	o, ok := m.orders[t.OrderID]
	if !ok {
		return domain.VoucherOrder{}, false, domain.ErrNotFound
	}
	key := redeemKey{o.ID, t.RequestID}
	keyed := t.To == domain.OrderUsed && t.RequestID != ""
	if units, seen := m.redeemed[key]; keyed && seen {
		return domain.VoucherOrder{}, false, &orders.RedeemedBefore{Order: o, Units: units}
	}
	if !slices.Contains(t.From, o.Status) {
		return o, false, nil
	}
	o, changed := m.move(o, t)
	if changed && keyed {
		m.redeemed[key] = t.Units
	}
	return o, changed, nil
}

// ExpireDue implements orders.OrderStore. The memory store keeps no waitlists: every
// unit goes back to the stock, whatever line says.
func (m *Memory) ExpireDue(_ context.Context, now time.Time, limit int, _ orders.LineHold) ([]domain.VoucherOrder, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	expire := domain.MoveOf(domain.OrderExpire)
	var due []domain.VoucherOrder
	for _, o := range m.orders {
		if expire.Allows(o.Status) && o.PayDeadline != nil && !o.PayDeadline.After(now) {
			due = append(due, o)
		}
	}
	slices.SortFunc(due, func(a, b domain.VoucherOrder) int { return a.PayDeadline.Compare(*b.PayDeadline) })
	due = due[:min(len(due), max(limit, 0))]
	t := orders.Transition{From: expire.From, To: expire.To, At: now, CancelReason: domain.CancelTimeout, ReturnUnit: expire.ReturnsUnit()}
	for i, o := range due {
		due[i], _ = m.move(o, t)
	}
	return due, nil
}
