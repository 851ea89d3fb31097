package domain

import "time"

// Flash-sale refusals.
var (
	ErrSoldOut        = &Error{Code: CodeSoldOut, Message: "sold out"}
	ErrAlreadyClaimed = &Error{Code: CodeAlreadyClaimed, Message: "you already hold this voucher"}
	ErrNotStarted     = &Error{Code: CodeNotStarted, Message: "the sale has not started"}
	ErrEnded          = &Error{Code: CodeEnded, Message: "the sale has ended"}
)

// OrderEvent tells that an order reached a status.
type OrderEvent struct {
	OrderID   int64
	UserID    int64
	VoucherID int64
	Status    OrderStatus
	// Reason says why an order FAILED or was CANCELED (BUYER, TIMEOUT).
	Reason string
	At     time.Time
}

// Live reports whether the sale accepts claims at now.
func (f FlashSale) Live(now time.Time) bool {
	return !now.Before(f.BeginTime) && now.Before(f.EndTime)
}
