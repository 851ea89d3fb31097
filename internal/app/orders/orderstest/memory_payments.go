package orderstest

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/domain"
)

// MemoryPayments is an in-memory orders.PaymentStore and orders.LedgerReader over the
// orders of a Memory: the payments live beside the orders, behind the same lock, so a
// settlement moves a payment and pays its order in one step, as a transaction does,
// through the domain's transition table (orders.Move).
type MemoryPayments struct{ m *Memory }

var (
	_ orders.PaymentStore = (*MemoryPayments)(nil)
	_ orders.LedgerReader = (*MemoryPayments)(nil)
)

// NewMemoryPayments returns the payment store of m's orders.
func NewMemoryPayments(m *Memory) *MemoryPayments { return &MemoryPayments{m: m} }

// refundReasonLate is recorded on a payment that succeeded after its order stopped
// waiting for it, as the relational store records it.
const refundReasonLate = "the order was no longer awaiting payment"

// CreatePayment implements orders.PaymentStore.
func (s *MemoryPayments) CreatePayment(_ context.Context, p domain.Payment) (domain.Payment, bool, error) {
	m := s.m
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, open := range m.payments {
		if open.OrderID == p.OrderID && open.Status == domain.PaymentPending {
			return open, false, nil
		}
	}
	if _, taken := m.payments[p.ID]; taken || p.ID <= 0 {
		return domain.Payment{}, false, domain.Errorf(domain.CodeConflict, "payment %d: id taken or not positive", p.ID)
	}
	p.Status = domain.PaymentPending
	if p.CreatedAt.IsZero() {
		p.CreatedAt = time.Now()
	}
	m.payments[p.ID] = p
	return p, true, nil
}

// SetProviderRef implements orders.PaymentStore.
func (s *MemoryPayments) SetProviderRef(_ context.Context, paymentID int64, ref string) error {
	m := s.m
	m.mu.Lock()
	defer m.mu.Unlock()
	p, ok := m.payments[paymentID]
	if !ok {
		return domain.ErrNotFound
	}
	p.ProviderRef = ref
	m.payments[paymentID] = p
	return nil
}

// Payment implements orders.PaymentStore.
func (s *MemoryPayments) Payment(_ context.Context, id int64) (domain.Payment, error) {
	s.m.mu.Lock()
	defer s.m.mu.Unlock()
	p, ok := s.m.payments[id]
	if !ok {
		return domain.Payment{}, domain.ErrNotFound
	}
	return p, nil
}

// list returns the payments keep says to, oldest (lowest id) first, up to limit (< 0:
// all).
func (s *MemoryPayments) list(keep func(domain.Payment) bool, limit int) []domain.Payment {
	s.m.mu.Lock()
	defer s.m.mu.Unlock()
	var out []domain.Payment
	for _, p := range s.m.payments {
		if keep(p) {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b domain.Payment) int { return cmp.Compare(a.ID, b.ID) })
	if limit >= 0 {
		out = out[:min(len(out), limit)]
	}
	return out
}

// PaymentsOfOrder implements orders.PaymentStore.
func (s *MemoryPayments) PaymentsOfOrder(_ context.Context, orderID int64) ([]domain.Payment, error) {
	return s.list(func(p domain.Payment) bool { return p.OrderID == orderID }, -1), nil
}

// PaymentsOfOrders implements orders.PaymentStore.
func (s *MemoryPayments) PaymentsOfOrders(_ context.Context, orderIDs []int64) (map[int64][]domain.Payment, error) {
	out := map[int64][]domain.Payment{}
	for _, p := range s.list(func(p domain.Payment) bool { return slices.Contains(orderIDs, p.OrderID) }, -1) {
		out[p.OrderID] = append(out[p.OrderID], p)
	}
	return out, nil
}

// OpenPayment implements orders.PaymentStore.
func (s *MemoryPayments) OpenPayment(_ context.Context, orderID int64) (bool, error) {
	return len(s.list(func(p domain.Payment) bool { return p.OrderID == orderID && p.Status.Open() }, 1)) > 0, nil
}

// RefundsDue implements orders.PaymentStore.
func (s *MemoryPayments) RefundsDue(_ context.Context, limit int) ([]domain.Payment, error) {
	return s.list(func(p domain.Payment) bool { return p.Status == domain.PaymentRefundPending }, max(limit, 0)), nil
}

// SettlePayment implements orders.PaymentStore.
func (s *MemoryPayments) SettlePayment(_ context.Context, paymentID int64, succeeded bool, at time.Time, code, reason string) (orders.Settlement, error) {
	m := s.m
	m.mu.Lock()
	defer m.mu.Unlock()
	p, ok := m.payments[paymentID]
	if !ok {
		return orders.Settlement{}, domain.ErrNotFound
	}
	outcome := orders.SettledAgain
	switch {
	case p.Status != domain.PaymentPending:
	case !succeeded:
		outcome, p.Status, p.FailReason = orders.SettledFailed, domain.PaymentFailed, reason
	default:
		p.Status, p.PaidAt = domain.PaymentSucceeded, &at
		pay := orders.Move(domain.OrderPay, p.OrderID, at)
		pay.RedemptionCode = code
		if o, ok := m.orders[p.OrderID]; ok && slices.Contains(pay.From, o.Status) {
			m.move(o, pay)
			outcome = orders.SettledPaid
		} else {
			// The order stopped waiting (canceled, expired or paid otherwise): the money goes back.
			outcome, p.Status, p.RefundReason = orders.SettledRefundDue, domain.PaymentRefundPending, refundReasonLate
			p.RefundAmount = p.Amount
		}
	}
	m.payments[p.ID] = p
	o, ok := m.orders[p.OrderID]
	if !ok {
		return orders.Settlement{}, domain.ErrNotFound
	}
	return orders.Settlement{Outcome: outcome, Payment: p, Order: o}, nil
}

// MarkRefunded implements orders.PaymentStore.
func (s *MemoryPayments) MarkRefunded(_ context.Context, paymentID int64, at time.Time) (bool, error) {
	m := s.m
	m.mu.Lock()
	defer m.mu.Unlock()
	p, ok := m.payments[paymentID]
	if !ok || p.Status != domain.PaymentRefundPending {
		return false, nil
	}
	p.Status, p.RefundedAt = domain.PaymentRefunded, &at
	m.payments[paymentID] = p
	return true, nil
}

// Ledger implements orders.LedgerReader, counting as the relational store's statements
// do.
func (s *MemoryPayments) Ledger(_ context.Context, voucherID int64) (orders.Ledger, error) {
	m := s.m
	m.mu.Lock()
	defer m.mu.Unlock()
	led := orders.Ledger{VoucherID: voucherID}
	succeeded, givenBack := map[int64]int{}, map[int64]bool{}
	for _, p := range m.payments {
		o, ok := m.orders[p.OrderID]
		if !ok || o.VoucherID != voucherID {
			continue
		}
		led.Payments++
		switch p.Status {
		case domain.PaymentPending:
			led.PaymentsPending++
		case domain.PaymentRefundPending:
			led.RefundsPending++
			givenBack[o.ID] = true
		case domain.PaymentRefunded:
			givenBack[o.ID] = true
		case domain.PaymentSucceeded:
			succeeded[o.ID]++
			if o.Status != domain.OrderPaid && o.Status != domain.OrderUsed {
				led.StrayPayments++
			}
		}
	}
	codes := map[string]int{}
	for _, o := range m.orders {
		if o.VoucherID != voucherID {
			continue
		}
		led.Orders++
		paid := o.Status == domain.OrderPaid || o.Status == domain.OrderUsed
		count := func(n *int64, offends bool) {
			if offends {
				*n++
			}
		}
		count(&led.PaidAndCanceled, (o.Status == domain.OrderCanceled || o.Status == domain.OrderFailed) && o.PayTime != nil)
		count(&led.PaidWithoutPayment, paid && o.Amount > 0 && succeeded[o.ID] != 1)
		count(&led.RefundedKeptMoney, o.Status == domain.OrderRefunded && o.Amount > 0 && !givenBack[o.ID])
		count(&led.PaidWithoutCode, paid && o.RedemptionCode == "")
		count(&led.UsedWithoutTime, o.Status == domain.OrderUsed && o.UseTime == nil)
		if o.RedemptionCode != "" {
			codes[o.RedemptionCode]++
		}
	}
	for _, n := range codes {
		if n > 1 {
			led.SharedCodes++
		}
	}
	return led, nil
}
