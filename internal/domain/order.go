package domain

import (
	"crypto/rand"
	"time"
)

// OrderStatus is where an order is in its life:
//
//	PENDING ─▶ CREATED ─▶ PAID ─▶ USED
//	   │          │          └──▶ REFUNDED
//	   ▼          └──▶ CANCELED (by the buyer, or the payment deadline passed)
//	 FAILED
//
// The moves between them are one table, OrderMoves (order_state.go).
type OrderStatus string

// Order statuses.
const (
	// OrderPending: a flash-sale claim was accepted and its order is being written.
	OrderPending OrderStatus = "PENDING"
	// OrderCreated: the order exists and waits for payment until its pay deadline.
	OrderCreated OrderStatus = "CREATED"
	// OrderFailed: the claim's order could not be written; its unit went back.
	OrderFailed OrderStatus = "FAILED"
	// OrderPaid: paid; the redemption code can be shown at the shop.
	OrderPaid OrderStatus = "PAID"
	// OrderUsed: redeemed at the shop.
	OrderUsed OrderStatus = "USED"
	// OrderCanceled: canceled by the buyer or at the pay deadline; its unit went back.
	OrderCanceled OrderStatus = "CANCELED"
	// OrderRefunded: paid, then refunded; its unit went back.
	OrderRefunded OrderStatus = "REFUNDED"
)

// Final reports whether no further status follows s.
func (s OrderStatus) Final() bool {
	switch s {
	case OrderUsed, OrderCanceled, OrderRefunded, OrderFailed:
		return true
	}
	return false
}

// HoldsUnit reports whether an order in status s holds a unit of its sale's stock
// (invariant I5): PENDING, CREATED, PAID and USED do; FAILED, CANCELED and REFUNDED
// gave theirs back.
func (s OrderStatus) HoldsUnit() bool {
	switch s {
	case OrderPending, OrderCreated, OrderPaid, OrderUsed:
		return true
	}
	return false
}

// Valid reports whether s is a known status.
func (s OrderStatus) Valid() bool {
	switch s {
	case OrderPending, OrderCreated, OrderFailed, OrderPaid, OrderUsed, OrderCanceled, OrderRefunded:
		return true
	}
	return false
}

// FailLost is the FailReason of an order whose claim was accepted and then lost with
// Redis before the order was written (QUEUE=redis on a Redis without AOF that came
// back empty): it never will be, and its unit and the user's slot are free again.
const FailLost = "LOST"

// CancelReason says why an order was canceled.
type CancelReason string

// Cancel reasons.
const (
	// CancelByBuyer: the buyer canceled the unpaid order.
	CancelByBuyer CancelReason = "BUYER"
	// CancelTimeout: the pay deadline passed.
	CancelTimeout CancelReason = "TIMEOUT"
)

// VoucherOrder is one purchase of a voucher: a flash-sale claim or a normal voucher
// bought directly. Its id is assigned by the app (time-ordered, unique across nodes),
// never by the database.
type VoucherOrder struct {
	ID        int64
	UserID    int64
	VoucherID int64
	// ShopID is the voucher's shop (0 on orders written before it was recorded).
	ShopID int64
	// Kind is the voucher's kind; FLASH_SALE orders hold a unit of the sale's stock.
	Kind     VoucherKind
	Quantity int
	// RedeemedQuantity is how many of the Quantity units the shop has redeemed: an order
	// is redeemed unit by unit and becomes USED when none is left.
	RedeemedQuantity int
	// Amount is what the buyer pays, in cents.
	Amount    int64
	Status    OrderStatus
	CreatedAt time.Time
	// PayDeadline is when the order, still CREATED, is canceled (nil: none).
	PayDeadline  *time.Time
	PayTime      *time.Time
	UseTime      *time.Time
	CanceledAt   *time.Time
	CancelReason CancelReason
	RefundTime   *time.Time
	RefundReason string
	// FailReason says why a FAILED order failed: FailLost, or a description.
	FailReason string
	// RedemptionCode is set once the order is PAID; only its owner may see it.
	RedemptionCode string
	// LineHeld is set on the order a release (cancel, refund, expiry) returns when that
	// release held the order's unit for the sale's waitlist in its transaction; it is not
	// stored (read orders leave it false).
	LineHeld bool
}

// UnitsLeft is how many of the order's units can still be redeemed (PAID) or will be
// once paid (PENDING, CREATED); 0 for an order that is USED, CANCELED, REFUNDED or
// FAILED.
func (o VoucherOrder) UnitsLeft() int {
	switch o.Status {
	case OrderPending, OrderCreated, OrderPaid:
		return max(max(o.Quantity, 1)-o.RedeemedQuantity, 0)
	}
	return 0
}

// Redeemed is how many of the order's units were redeemed: all of them once it is USED
// (orders redeemed whole before units were counted, too).
func (o VoucherOrder) Redeemed() int {
	if o.Status == OrderUsed {
		return max(o.Quantity, 1)
	}
	return o.RedeemedQuantity
}

// RedeemUnits returns the status redeeming n units of o leads to: USED when no unit is
// left after them, PAID while some are. Errors: BAD_USER_INPUT for n < 1; the CONFLICT
// of the redeem move when o is not PAID, and a CONFLICT when fewer than n units are left.
func (o VoucherOrder) RedeemUnits(n int) (OrderStatus, error) {
	if n < 1 {
		return o.Status, Errorf(CodeBadUserInput, "quantity must be at least 1")
	}
	if _, err := o.Redeem(); err != nil {
		return o.Status, err
	}
	left := o.UnitsLeft()
	if n > left {
		return o.Status, StatusConflict(o.Status, "only %d of the order's %d units are left to redeem", left, max(o.Quantity, 1))
	}
	if n == left {
		return OrderUsed, nil
	}
	return OrderPaid, nil
}

// RefundAmount is what refunding o gives back, in cents: the price of its units not
// redeemed (all of Amount when none was).
func (o VoucherOrder) RefundAmount() int64 {
	q := int64(max(o.Quantity, 1))
	return o.Amount * (q - int64(min(o.RedeemedQuantity, int(q)))) / q
}

// redemptionAlphabet is Crockford's base 32: no I, L, O or U to misread at a counter.
const redemptionAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// RedemptionCodeLen is the length of a redemption code: 12 symbols of 5 bits, 60 random
// bits, so guessing one of a billion live codes takes ~10⁹ tries on average.
const RedemptionCodeLen = 12

// NewRedemptionCode returns a fresh, unguessable redemption code.
func NewRedemptionCode() string {
	var b [RedemptionCodeLen]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
	for i := range b {
		b[i] = redemptionAlphabet[b[i]&31]
	}
	return string(b[:])
}

// PaymentStatus is where a payment is.
type PaymentStatus string

// Payment statuses.
const (
	// PaymentPending: created at the provider, waiting for its notification.
	PaymentPending PaymentStatus = "PENDING"
	// PaymentSucceeded: the provider collected the money.
	PaymentSucceeded PaymentStatus = "SUCCEEDED"
	// PaymentFailed: the provider could not collect the money.
	PaymentFailed PaymentStatus = "FAILED"
	// PaymentRefundPending: the money is to go back; the provider has not confirmed yet.
	PaymentRefundPending PaymentStatus = "REFUND_PENDING"
	// PaymentRefunded: the provider gave the money back.
	PaymentRefunded PaymentStatus = "REFUNDED"
)

// Payment is one attempt to pay an order, and its refund.
type Payment struct {
	ID      int64
	OrderID int64
	UserID  int64
	// Amount is in cents.
	Amount int64
	Status PaymentStatus
	// Provider names the provider; ProviderRef is its id of the payment.
	Provider     string
	ProviderRef  string
	CreatedAt    time.Time
	PaidAt       *time.Time
	RefundedAt   *time.Time
	RefundReason string
	// RefundAmount is what goes back, in cents, once the payment is REFUND_PENDING or
	// REFUNDED: Amount, or less when some of the order's units were redeemed.
	RefundAmount int64
	// FailReason says why the provider declined a FAILED payment.
	FailReason string
}

// Reasons of the order events that leave an order's status as it was and tell what
// happened to its money (OrderEvent.Reason).
const (
	// EventPaymentDeclined: the provider declined a payment of the order; a CREATED order
	// can be paid again.
	EventPaymentDeclined = "PAYMENT_DECLINED"
	// EventPaymentRefunding: a payment of the order succeeded after the order stopped
	// waiting for it (canceled, expired); its money is on the way back.
	EventPaymentRefunding = "PAYMENT_REFUNDING"
	// EventPaymentRefunded: the provider confirmed that a payment's money went back.
	EventPaymentRefunded = "PAYMENT_REFUNDED"
)

// PaymentNotice reports whether an order event's reason is news about the order's money
// (EventPayment…), which an event may bring without a change of status.
func PaymentNotice(reason string) bool {
	switch reason {
	case EventPaymentDeclined, EventPaymentRefunding, EventPaymentRefunded:
		return true
	}
	return false
}

// Open reports whether the payment still moves money: the provider's word is awaited
// (PENDING) or its refund is (REFUND_PENDING).
func (s PaymentStatus) Open() bool { return s == PaymentPending || s == PaymentRefundPending }
