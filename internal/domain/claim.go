package domain

import "time"

// Claim is an accepted flash-sale claim: the gate has reserved one unit of stock for the
// user and promised an order with this id. It travels through the order queue to the
// consumer that writes the order.
type Claim struct {
	OrderID   int64
	UserID    int64
	VoucherID int64
	ClaimedAt time.Time
}

// PayDeadline is when the order of a claim made at claimedAt, written as one that waits
// for payment, is canceled unless paid: payWithin after the claim, counted from the
// claim's millisecond (the precision a claim keeps on its way through the gate and the
// queue). The order writer stores it and a PENDING order shows it, so the two agree to
// the millisecond and the deadline does not move when the order is written.
func PayDeadline(claimedAt time.Time, payWithin time.Duration) time.Time {
	return time.UnixMilli(claimedAt.UnixMilli()).UTC().Add(payWithin)
}
