package orderstest

import (
	"context"
	"errors"
	"maps"
	"strconv"
	"sync"
	"time"

	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/domain"
)

// MemDeclinedCents makes MemProvider decline a payment: an amount whose cents are these
// fails, as with the simulated provider.
const MemDeclinedCents = 13

// MemProvider is an in-memory orders.PaymentProvider. It decides at once: the
// notification of a payment is kept (Notifications) for the test to hand to
// Payments.Notify, as the transport would. It refunds unless told to refuse.
type MemProvider struct {
	mu       sync.Mutex
	refs     map[int64]string // payment id → reference
	sent     []orders.Notification
	refunded map[int64]string // payment id → reason
	refusing bool
}

var _ orders.PaymentProvider = (*MemProvider)(nil)

// NewMemProvider returns a provider no payment was asked of.
func NewMemProvider() *MemProvider {
	return &MemProvider{refs: map[int64]string{}, refunded: map[int64]string{}}
}

// Name implements orders.PaymentProvider.
func (*MemProvider) Name() string { return "mem" }

// CreatePayment implements orders.PaymentProvider: the payment's reference, the same
// every time it is asked for; its notification is kept the first time.
func (m *MemProvider) CreatePayment(_ context.Context, p domain.Payment) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if ref, ok := m.refs[p.ID]; ok {
		return ref, nil
	}
	ref := "mem_" + strconv.FormatInt(p.ID, 10)
	m.refs[p.ID] = ref
	n := orders.Notification{PaymentID: p.ID, ProviderRef: ref, Succeeded: p.Amount%100 != MemDeclinedCents, Amount: p.Amount, At: time.Now()}
	if !n.Succeeded {
		n.Reason = "declined by the in-memory provider"
	}
	m.sent = append(m.sent, n)
	return ref, nil
}

// Refund implements orders.PaymentProvider: it records the reason, or fails while the
// provider refuses.
func (m *MemProvider) Refund(_ context.Context, p domain.Payment, reason string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.refusing {
		return errors.New("the provider is down")
	}
	if _, done := m.refunded[p.ID]; !done {
		m.refunded[p.ID] = reason
	}
	return nil
}

// Refuse makes refunds fail (on) or succeed again (off).
func (m *MemProvider) Refuse(on bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.refusing = on
}

// Created returns the payments asked for: payment id → the reference answered.
func (m *MemProvider) Created() map[int64]string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return maps.Clone(m.refs)
}

// Refunds returns the payments refunded: payment id → the reason of the first refund.
func (m *MemProvider) Refunds() map[int64]string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return maps.Clone(m.refunded)
}

// Refunded reports whether the payment was refunded.
func (m *MemProvider) Refunded(paymentID int64) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.refunded[paymentID]
	return ok
}

// Notifications returns the notifications of the payments asked for, in the order they
// were asked for.
func (m *MemProvider) Notifications() []orders.Notification {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]orders.Notification(nil), m.sent...)
}
