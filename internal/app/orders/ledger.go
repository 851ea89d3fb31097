package orders

import (
	"context"
	"fmt"
)

// Ledger is what one sale's orders and payments add up to, read after the sale has
// settled, to check the invariants about money and codes (DESIGN.md §3):
//
//   - I6: no order is both paid and canceled; every successful payment belongs to exactly
//     one PAID, USED or REFUNDED order, or was refunded.
//   - I7: a redemption code redeems once.
//
// Each field but the totals counts offenders; a sound sale has them all at zero.
type Ledger struct {
	VoucherID int64

	// Orders and payments of the sale, for the report.
	Orders   int64
	Payments int64
	// RefundsPending counts payments whose money is on its way back (REFUND_PENDING):
	// not an offence, but the ledger is only settled once it is zero.
	RefundsPending int64
	// PaymentsPending counts payments still waiting for the provider's word.
	PaymentsPending int64

	// PaidAndCanceled counts CANCELED or FAILED orders that carry a pay time (I6).
	PaidAndCanceled int64
	// StrayPayments counts SUCCEEDED payments whose order is not PAID or USED: money kept
	// for nothing (I6).
	StrayPayments int64
	// PaidWithoutPayment counts PAID and USED orders with an amount to pay that do not
	// have exactly one SUCCEEDED payment (I6).
	PaidWithoutPayment int64
	// RefundedKeptMoney counts REFUNDED orders with an amount whose payment was not
	// given back (REFUNDED or REFUND_PENDING) (I6).
	RefundedKeptMoney int64
	// PaidWithoutCode counts PAID and USED orders without a redemption code (I7).
	PaidWithoutCode int64
	// SharedCodes counts redemption codes held by more than one order (I7).
	SharedCodes int64
	// UsedWithoutTime counts USED orders without the time they were redeemed (I7).
	UsedWithoutTime int64
}

// LedgerReader reads a sale's ledger.
type LedgerReader interface {
	Ledger(ctx context.Context, voucherID int64) (Ledger, error)
}

// Settled reports whether no payment is waiting for the provider and no refund is on
// its way: the moment to check.
func (l Ledger) Settled() bool { return l.PaymentsPending == 0 && l.RefundsPending == 0 }

// Check returns the I6 and I7 violations the ledger shows.
func (l Ledger) Check() []string {
	var bad []string
	add := func(n int64, format string) {
		if n != 0 {
			bad = append(bad, fmt.Sprintf(format, n))
		}
	}
	add(l.PaidAndCanceled, "I6 %d orders both paid and canceled")
	add(l.StrayPayments, "I6 %d succeeded payments whose order is not PAID or USED")
	add(l.PaidWithoutPayment, "I6 %d paid orders without exactly one succeeded payment")
	add(l.RefundedKeptMoney, "I6 %d refunded orders whose money was not given back")
	add(l.PaidWithoutCode, "I7 %d paid orders without a redemption code")
	add(l.SharedCodes, "I7 %d redemption codes held by more than one order")
	add(l.UsedWithoutTime, "I7 %d used orders without a redemption time")
	return bad
}
