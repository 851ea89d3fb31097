package waitlist

import (
	"context"
	"errors"
	"time"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
)

// ErrOfferGone is the store's answer to a move of an offer that is no longer the
// caller's to make: the unit is not HELD for that user any more (accepted, passed on,
// restocked), or — for an acceptance — its time ran out.
var ErrOfferGone = errors.New("waitlist: the offer is gone")

// Store holds the sales' waitlists and the returned units held for them: the database
// is their one copy. Every move of a held unit is one transaction conditional on the
// unit's current holder, so that of two nodes moving one unit at once exactly one does
// (invariant I8).
type Store interface {
	// Place returns the user's live place (WAITING or OFFERED) in the sale's line (found
	// false: none), with its position and offer.
	Place(ctx context.Context, voucherID, userID int64) (domain.WaitlistEntry, bool, error)
	// Join gives the user a WAITING place at the end of the sale's line, in one
	// transaction, unless the user has a live place there already: then that place is
	// returned and created is false. allow is called in the transaction, before the
	// insert, with the number of the sale's live places and whether the user holds a
	// live order of the voucher (PENDING, CREATED, PAID, USED); its error is returned and
	// nothing is written.
	Join(ctx context.Context, voucherID, userID int64, at time.Time, allow func(live int, holdsOrder bool) error) (e domain.WaitlistEntry, created bool, err error)
	// Leave deletes the user's WAITING place in the sale's line (false: none).
	Leave(ctx context.Context, voucherID, userID int64) (bool, error)
	// PlacesOfUser lists the user's live places, oldest first, each with its position
	// and its offer.
	PlacesOfUser(ctx context.Context, userID int64) ([]domain.WaitlistEntry, error)
	// Passed reports whether the user's latest place in the sale's line ended PASSED (an
	// offer declined or run out).
	Passed(ctx context.Context, voucherID, userID int64) (bool, error)

	// Hold holds each returned unit for the first WAITING place of the sale whose user
	// holds no live order of the voucher (places of users who do are closed PASSED on the
	// way), until expires; in the same transaction it takes the unit off the sale's
	// database stock (never below zero). One transaction per unit. A unit whose source
	// order was held before is returned as it stands (at most once per source order),
	// without a second hold (also with a zero expires, which holds no unit anew). A unit
	// no place waits for, or the stock cannot cover, is left out: it belongs to the stock.
	Hold(ctx context.Context, voucherID int64, units []SourceUnit, now, expires time.Time) ([]Held, error)
	// Route decides once where the unit of a claim that failed before it became an order
	// goes: held for the line as Hold holds it, or else recorded NOT_OFFERED (nobody
	// waits, no stock, or a zero expires: the unit belongs to the stock). Every later
	// call for the same source order answers what the first decided, whichever node
	// makes it, so that all of them give the unit back the same way.
	Route(ctx context.Context, voucherID int64, u SourceUnit, now, expires time.Time) (Held, error)
	// PassOn moves the unit held for from to the next WAITING place (held until expires)
	// in one transaction: from's place ends PASSED; when no place waits, or restock is
	// set, the unit goes back to the sale's database stock instead (RESTOCKED). Either
	// way the unit is not announced any more (AnnouncedAt nil: the next user has not been
	// told). due limits the move to an offer whose time ran out at now. ErrOfferGone
	// when the unit is not HELD for from (or, with due, not run out).
	PassOn(ctx context.Context, unitID, from int64, due bool, restock bool, now, expires time.Time) (Passed, error)
	// Accept turns the unit held for the user into the user's order o, in one
	// transaction: the unit becomes CLAIMED by o (inserted as given; it takes no stock —
	// the unit left the stock when it was held; a PAID one counts in its shop's sold) and
	// the place CLAIMED. ErrOfferGone when the unit is not HELD for the user or its time
	// ran out at o.CreatedAt; domain.ErrAlreadyClaimed when the user holds a live order
	// of the voucher (nothing changes).
	Accept(ctx context.Context, unitID, userID int64, o domain.VoucherOrder) (domain.VoucherOrder, error)
	// DueOffers lists up to limit HELD units whose offer ran out at now, oldest deadline
	// first.
	DueOffers(ctx context.Context, now time.Time, limit int) ([]domain.WaitlistOffer, error)
	// HeldUnits counts the sale's HELD units (out of its stock, in no order yet).
	HeldUnits(ctx context.Context, voucherID int64) (int64, error)
	// Unannounced lists up to limit HELD units whose offer to their user was never
	// announced (AnnouncedAt nil), held at or before heldBy and still running at now,
	// oldest offer first.
	Unannounced(ctx context.Context, heldBy, now time.Time, limit int) ([]domain.WaitlistOffer, error)
	// MarkAnnounced records that offer o was announced at at: the unit's AnnouncedAt is
	// set while it is HELD for o.UserID at place o.EntryID and not announced yet (false:
	// it was not — passed on or announced meanwhile).
	MarkAnnounced(ctx context.Context, o domain.WaitlistOffer, at time.Time) (bool, error)
}

// SourceUnit is a returned unit offered to a waitlist: the order whose unit it was, and
// that order's user (the flash sale's own name for it).
type SourceUnit = seckill.ReturnedUnit

// Held is a unit Hold holds: New is false when it was held by an earlier call.
type Held struct {
	Offer domain.WaitlistOffer
	New   bool
}

// Passed is what PassOn did: the unit is held for the next in line now (Next), or it
// went back to the stock (Restocked).
type Passed struct {
	Unit      domain.WaitlistOffer
	Next      *domain.WaitlistOffer
	Restocked bool
}

// Sales is the flash sale's side of the waitlist (package seckill implements it): a
// sale's stock, its gate's slots and its pending claims.
type Sales interface {
	// Restock gives a held unit that nobody took back to the sale's live stock (the
	// database has it back already), at most once per source order, and opens the sale
	// again on every node.
	Restock(ctx context.Context, voucherID int64, u SourceUnit) error
	// TakeSlot marks the user as holding the sale in its gate, as a claim does, without
	// taking a unit: false when the user is marked already (a claim or an order). A sale
	// the gate does not hold is left alone (true: it is loaded from the database, where
	// the user's order will be).
	TakeSlot(ctx context.Context, voucherID, userID int64) (bool, error)
	// StockLeft is the sale's stock left to claim (the gate's, or the database's when the
	// gate does not hold the sale).
	StockLeft(ctx context.Context, voucherID int64) (int64, error)
	// ClaimPending reports whether the user has a claim of the sale whose order is not
	// written yet.
	ClaimPending(ctx context.Context, voucherID, userID int64) (bool, error)
}

// Vouchers reads vouchers.
type Vouchers interface {
	// Voucher returns one voucher with its flash sale, or domain.ErrNotFound.
	Voucher(ctx context.Context, id int64) (domain.Voucher, error)
}

// IDGenerator hands out order ids: 64-bit, time-ordered, unique across nodes.
type IDGenerator interface {
	NextID(ctx context.Context) (int64, error)
}

// StatusPublisher tells every node that an order reached a status (the orderStatus
// subscriptions listen).
type StatusPublisher interface {
	Publish(ctx context.Context, events ...domain.OrderEvent) error
}

// Inbox writes notifications into the users' inboxes and pushes them, before it
// returns (the inbox's Writer): an error means some may not be written. An offer's
// notification written again adds nothing while the user has not read the first (one
// unread notification per user and unit).
type Inbox interface {
	Handle(ctx context.Context, events []domain.NotificationEvent) error
}
