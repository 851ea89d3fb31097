package domain

import "time"

// WaitlistStatus is where a user's place in a sale's waitlist stands.
type WaitlistStatus string

// Waitlist statuses. A place is WAITING in line until a returned unit is held for its
// user (OFFERED); the offer ends CLAIMED (accepted: the user's order exists) or PASSED
// (declined, or not accepted in time: the unit went to the next in line). A user who
// leaves the line loses the place (the row goes).
const (
	WaitlistWaiting WaitlistStatus = "WAITING"
	WaitlistOffered WaitlistStatus = "OFFERED"
	WaitlistClaimed WaitlistStatus = "CLAIMED"
	WaitlistPassed  WaitlistStatus = "PASSED"
)

// Live reports whether the place still counts: in line, or holding an offer.
func (s WaitlistStatus) Live() bool { return s == WaitlistWaiting || s == WaitlistOffered }

// WaitlistEntry is one user's place in the line for a sold-out flash sale's returned
// units. Places are served in the order they were taken (by ID).
type WaitlistEntry struct {
	ID        int64
	VoucherID int64
	UserID    int64
	Status    WaitlistStatus
	JoinedAt  time.Time
	// Position is the place's live position among the sale's WAITING places (1: next
	// to be offered a unit); 0 when it is not WAITING.
	Position int
	// Offer is the unit held for the user while the place is OFFERED (nil otherwise).
	Offer *WaitlistOffer
}

// HeldUnitStatus is where a returned unit held for the waitlist stands.
type HeldUnitStatus string

// Held unit statuses: HELD for one user at a time until it is CLAIMED by that user's
// order, or RESTOCKED (nobody left in line: back in the sale's stock). NOT_OFFERED is the
// unit of a failed claim that nobody waited for: it went to the stock without an offer.
const (
	UnitHeld       HeldUnitStatus = "HELD"
	UnitClaimed    HeldUnitStatus = "CLAIMED"
	UnitRestocked  HeldUnitStatus = "RESTOCKED"
	UnitNotOffered HeldUnitStatus = "NOT_OFFERED"
)

// WaitlistOffer is a returned unit of a sale held for one user of its waitlist until
// ExpiresAt (invariant I8: held for exactly one user at a time, then claimed by that
// user or passed on, never sold twice nor lost).
type WaitlistOffer struct {
	// ID is the held unit's id: it stays the same as the unit passes down the line.
	ID        int64
	VoucherID int64
	// SourceOrderID is the order whose unit came back (canceled, refunded, expired, or a
	// failed claim): a unit is held at most once per source order.
	SourceOrderID int64
	// SourceUserID is that order's user.
	SourceUserID int64
	// UserID is whom the unit is held for now (0 once it is not HELD); EntryID is that
	// user's place.
	UserID    int64
	EntryID   int64
	Status    HeldUnitStatus
	OfferedAt time.Time
	ExpiresAt time.Time
	// OrderID is the order that claimed it (0 until CLAIMED).
	OrderID int64
	// AnnouncedAt is when UserID's WAITLIST_OFFER notification was written (nil: not
	// yet — also when a node stopped between holding the unit and telling the user).
	AnnouncedAt *time.Time
}

// Waitlist refusals.
var (
	ErrNoOffer      = &Error{Code: CodeNoOffer, Message: "no unit is held for you on this sale"}
	ErrOfferExpired = &Error{Code: CodeOfferExpired, Message: "the unit held for you was passed on: its offer ran out or was declined"}
	ErrWaitlistFull = &Error{Code: CodeWaitlistFull, Message: "the waitlist of this sale is full"}
)
