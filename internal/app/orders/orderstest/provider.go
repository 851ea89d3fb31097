package orderstest

import (
	"context"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/contracttest"
	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/domain"
)

// PaymentProvider is a payment provider and what the contract reads of it.
type PaymentProvider struct {
	orders.PaymentProvider
	// Declined is an amount the provider declines: its notification says the payment
	// failed. Every other amount is collected.
	Declined int64
	// Notified waits until at least n notifications of the provider reached the app
	// (verified, as the transport hands them to Payments.Notify) and returns all of them.
	Notified func(t *testing.T, n int) []orders.Notification
	// Refunded reports whether the provider gave a payment's money back.
	Refunded func(paymentID int64) bool
}

// PaymentProviderContract is what every orders.PaymentProvider must do, as its doc
// comments say: a payment asked for is notified once, with the provider's reference and
// the amount collected, however often it is asked for; a declined one is notified as
// failed; a refund asked for twice is given without error, to the payment it names only. newProvider returns a
// provider of the case's own (its notifications are the case's only).
func PaymentProviderContract(t *testing.T, newProvider func(t *testing.T) PaymentProvider) {
	t.Helper()
	contracttest.RunCases(t, newProvider,
		contracttest.Case[PaymentProvider]{Name: "a payment is notified once, collected, with its reference", Run: providerCollects},
		contracttest.Case[PaymentProvider]{Name: "a declined payment is notified as failed", Run: providerDeclines},
		contracttest.Case[PaymentProvider]{Name: "a refund asked for twice is given, to its payment only", Run: providerRefunds},
	)
}

// quietAfter is how long a case waits for a notification that must not come.
const quietAfter = 100 * time.Millisecond

// ask asks the provider to collect p and wants a reference.
func (p PaymentProvider) ask(t *testing.T, pay domain.Payment) string {
	t.Helper()
	ref, err := p.CreatePayment(context.Background(), pay)
	if err != nil || ref == "" {
		t.Fatalf("create payment %d: %q, %v; want a reference", pay.ID, ref, err)
	}
	return ref
}

func providerCollects(t *testing.T, p PaymentProvider) {
	name := p.Name()
	if name == "" || p.Name() != name {
		t.Fatalf("the provider names itself %q, then %q; want one non-empty name", name, p.Name())
	}
	first := domain.Payment{ID: newID(), OrderID: newID(), UserID: newID(), Amount: 990, Provider: name}
	second := domain.Payment{ID: newID(), OrderID: newID(), UserID: first.UserID, Amount: 1250, Provider: name}
	ref := p.ask(t, first)
	if again := p.ask(t, first); again != ref {
		t.Errorf("payment %d asked for again: reference %q, want the first one %q", first.ID, again, ref)
	}
	other := p.ask(t, second)
	if other == ref {
		t.Errorf("two payments share the reference %q", ref)
	}
	p.Notified(t, 2)
	time.Sleep(quietAfter) // a payment asked for twice must not be notified twice
	got := p.Notified(t, 2)
	if len(got) != 2 {
		t.Fatalf("%d notifications for 2 payments, one asked for twice: %+v", len(got), got)
	}
	want := map[int64]orders.Notification{
		first.ID:  {PaymentID: first.ID, ProviderRef: ref, Succeeded: true, Amount: first.Amount},
		second.ID: {PaymentID: second.ID, ProviderRef: other, Succeeded: true, Amount: second.Amount},
	}
	for _, n := range got {
		w, ok := want[n.PaymentID]
		if at := n.At; !ok || at.IsZero() {
			t.Errorf("notification %+v: unknown payment or no time", n)
			continue
		}
		w.At = n.At
		if n != w {
			t.Errorf("notification %+v, want %+v", n, w)
		}
		delete(want, n.PaymentID)
	}
}

func providerDeclines(t *testing.T, p PaymentProvider) {
	pay := domain.Payment{ID: newID(), OrderID: newID(), UserID: newID(), Amount: p.Declined, Provider: p.Name()}
	ref := p.ask(t, pay)
	got := p.Notified(t, 1)
	if len(got) != 1 || got[0].PaymentID != pay.ID || got[0].Succeeded || got[0].ProviderRef != ref || got[0].Amount != pay.Amount ||
		got[0].Reason == "" {
		t.Fatalf("notifications of a declined payment %d (%q): %+v; want one, failed, saying why", pay.ID, ref, got)
	}
}

func providerRefunds(t *testing.T, p PaymentProvider) {
	ctx := context.Background()
	paid := domain.Payment{ID: newID(), OrderID: newID(), UserID: newID(), Amount: 700, Provider: p.Name()}
	kept := domain.Payment{ID: newID(), OrderID: newID(), UserID: paid.UserID, Amount: 800, Provider: p.Name()}
	paid.ProviderRef, kept.ProviderRef = p.ask(t, paid), p.ask(t, kept)
	p.Notified(t, 2)
	if p.Refunded(paid.ID) || p.Refunded(kept.ID) {
		t.Fatal("a payment is refunded before anyone asked")
	}
	for i := range 2 {
		if err := p.Refund(ctx, paid, "the order was canceled"); err != nil {
			t.Fatalf("refund %d of payment %d: %v", i+1, paid.ID, err)
		}
	}
	if !p.Refunded(paid.ID) {
		t.Errorf("payment %d is not refunded", paid.ID)
	}
	if p.Refunded(kept.ID) {
		t.Errorf("payment %d is refunded; only %d was asked for", kept.ID, paid.ID)
	}
}
