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
