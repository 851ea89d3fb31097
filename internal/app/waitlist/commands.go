package waitlist

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/dealspot/dealspot/internal/domain"
)

// JoinWaitlist puts a user in a sold-out sale's line.
type JoinWaitlist struct{ c *core }

// Handle gives the caller a place at the end of the sale's line and returns it (with its
// position). Joining again returns the place held, unchanged. Errors: UNAUTHENTICATED;
// NOT_FOUND; BAD_USER_INPUT for a voucher that is not a flash sale; NOT_STARTED; ENDED;
// ALREADY_CLAIMED when the caller holds a live order of the voucher or has a claim of it
// on its way; CONFLICT while the sale has stock left to claim (claimVoucher takes it);
// WAITLIST_FULL once the line holds MaxPerSale places.
func (u *JoinWaitlist) Handle(ctx context.Context, a domain.Actor, voucherID int64) (domain.WaitlistEntry, error) {
	if err := loggedIn(a); err != nil {
		return domain.WaitlistEntry{}, err
	}
	v, err := u.c.flashSale(ctx, voucherID)
	if err != nil {
		return domain.WaitlistEntry{}, err
	}
	if e, found, err := u.c.d.Store.Place(ctx, voucherID, a.UserID); err != nil || found {
		return e, err
	}
	now := u.c.now()
	switch {
	case now.Before(v.FlashSale.BeginTime):
		return domain.WaitlistEntry{}, domain.ErrNotStarted
	case !now.Before(v.FlashSale.EndTime):
		return domain.WaitlistEntry{}, domain.ErrEnded
	}
	pending, err := u.c.d.Sales.ClaimPending(ctx, voucherID, a.UserID)
	if err != nil {
		return domain.WaitlistEntry{}, err
	}
	if pending {
		return domain.WaitlistEntry{}, domain.ErrAlreadyClaimed
	}
	left, err := u.c.d.Sales.StockLeft(ctx, voucherID)
	if err != nil {
		return domain.WaitlistEntry{}, err
	}
	if left > 0 {
		return domain.WaitlistEntry{}, domain.Errorf(domain.CodeConflict, "the sale has units left: claim one with claimVoucher")
	}
	e, _, err := u.c.d.Store.Join(ctx, voucherID, a.UserID, now, func(live int, holdsOrder bool) error {
		switch {
		case holdsOrder:
			return domain.ErrAlreadyClaimed
		case live >= u.c.cfg.MaxPerSale:
			return domain.ErrWaitlistFull
		}
		return nil
	})
	return e, err
}

// LeaveWaitlist takes a user out of a sale's line.
type LeaveWaitlist struct{ c *core }

// Handle gives up the caller's place in the sale's line; a unit held for the caller
// passes to the next in line. It reports whether there was a place. Errors:
// UNAUTHENTICATED.
func (u *LeaveWaitlist) Handle(ctx context.Context, a domain.Actor, voucherID int64) (bool, error) {
	if err := loggedIn(a); err != nil {
		return false, err
	}
	e, found, err := u.c.d.Store.Place(ctx, voucherID, a.UserID)
	if err != nil || !found {
		return false, err
	}
	if e.Offer != nil {
		if _, err := u.c.passOn(ctx, *e.Offer, false, false); err != nil && !errors.Is(err, ErrOfferGone) {
			return false, err
		}
		return true, nil
	}
	return u.c.d.Store.Leave(ctx, voucherID, a.UserID)
}

// AcceptOffer claims the unit held for a user.
type AcceptOffer struct{ c *core }

// Handle turns the unit held for the caller into the caller's order, as a claim of the
// sale would: CREATED with the pay deadline of a claim (PayTimeout), or PAID with its
// redemption code when the voucher costs nothing; then the caller's slot in the sale's
// gate is taken, so a claim of the sale answers ALREADY_CLAIMED. Errors: UNAUTHENTICATED;
// NOT_FOUND; NO_OFFER when no unit is held for the caller; OFFER_EXPIRED when it was
// passed on (run out, or declined); ALREADY_CLAIMED when the caller holds an order of
// the voucher already, or a claim of it on its way (the unit passes to the next in
// line).
func (u *AcceptOffer) Handle(ctx context.Context, a domain.Actor, voucherID int64) (domain.VoucherOrder, error) {
	if err := loggedIn(a); err != nil {
		return domain.VoucherOrder{}, err
	}
	v, err := u.c.flashSale(ctx, voucherID)
	if err != nil {
		return domain.VoucherOrder{}, err
	}
	offer, err := u.c.offerOf(ctx, voucherID, a.UserID)
	if err != nil {
		return domain.VoucherOrder{}, err
	}
	now := u.c.now()
	if !now.Before(offer.ExpiresAt) {
		// Its time ran out: pass it on now rather than at the next sweep.
		if _, err := u.c.passOn(ctx, offer, true, u.c.ended(v, now)); err != nil && !errors.Is(err, ErrOfferGone) {
			u.c.log.Warn("cannot pass an offer that ran out on", slog.Int64("unit_id", offer.ID), slog.Any("error", err))
		}
		return domain.VoucherOrder{}, domain.ErrOfferExpired
	}
	// A claim of the user on its way will be the user's order: the unit passes on.
	pending, err := u.c.d.Sales.ClaimPending(ctx, voucherID, a.UserID)
	if err != nil {
		return domain.VoucherOrder{}, err
	}
	if pending {
		u.giveUp(ctx, offer)
		return domain.VoucherOrder{}, domain.ErrAlreadyClaimed
	}
	id, err := u.c.d.IDs.NextID(ctx)
	if err != nil {
		return domain.VoucherOrder{}, fmt.Errorf("order id: %w", err)
	}
	o := domain.VoucherOrder{ID: id, UserID: a.UserID, VoucherID: voucherID, ShopID: v.ShopID, Kind: domain.VoucherFlashSale,
		Quantity: 1, Amount: v.PayValue, Status: domain.OrderPending, CreatedAt: now}
	if o.Status, err = o.Written(); err != nil {
		return domain.VoucherOrder{}, err
	}
	if o.Status == domain.OrderPaid {
		o.PayTime, o.RedemptionCode = &now, domain.NewRedemptionCode()
	} else {
		deadline := domain.PayDeadline(now, u.c.cfg.PayTimeout)
		o.PayDeadline = &deadline
	}
	// The order is the user's only live one of the sale: the store refuses a second
	// (ALREADY_CLAIMED), and a claim that races this acceptance has its order refused as
	// a duplicate and its unit given back.
	created, err := u.c.d.Store.Accept(ctx, offer.ID, a.UserID, o)
	switch {
	case errors.Is(err, ErrOfferGone):
		return domain.VoucherOrder{}, domain.ErrOfferExpired
	case errors.Is(err, domain.ErrAlreadyClaimed):
		u.giveUp(ctx, offer)
		return domain.VoucherOrder{}, domain.ErrAlreadyClaimed
	case err != nil:
		return domain.VoucherOrder{}, err
	}
	// Then the user's mark in the gate, so that claims answer ALREADY_CLAIMED. The order
	// comes first: the reconciler keeps the marks of users with live orders and drops
	// the others, so a mark set before the order was written could be dropped as drift.
	// A mark not set is set by the reconciler's repair.
	if _, err := u.c.d.Sales.TakeSlot(context.WithoutCancel(ctx), voucherID, a.UserID); err != nil {
		u.c.log.Warn("cannot mark the user of an accepted offer in the gate; the reconciler will", slog.Int64("voucher_id", voucherID),
			slog.Int64("order_id", created.ID), slog.Any("error", err))
	}
	if u.c.d.Status != nil {
		e := domain.OrderEvent{OrderID: created.ID, UserID: created.UserID, VoucherID: voucherID, Status: created.Status, At: now}
		if err := u.c.d.Status.Publish(context.WithoutCancel(ctx), e); err != nil {
			u.c.log.Warn("cannot publish order status", slog.Int64("order_id", created.ID), slog.Any("error", err))
		}
	}
	return created, nil
}

// giveUp passes on an offer its user cannot take (they hold an order already).
func (u *AcceptOffer) giveUp(ctx context.Context, offer domain.WaitlistOffer) {
	if _, err := u.c.passOn(ctx, offer, false, false); err != nil && !errors.Is(err, ErrOfferGone) {
		u.c.log.Warn("cannot pass an offer on", slog.Int64("unit_id", offer.ID), slog.Any("error", err))
	}
}

// DeclineOffer passes the unit held for a user on.
type DeclineOffer struct{ c *core }

// Handle passes the unit held for the caller to the next in line (or back to the stock
// when nobody waits); the caller's place ends. Errors: UNAUTHENTICATED; NOT_FOUND;
// NO_OFFER; OFFER_EXPIRED when it was passed on already.
func (u *DeclineOffer) Handle(ctx context.Context, a domain.Actor, voucherID int64) (bool, error) {
	if err := loggedIn(a); err != nil {
		return false, err
	}
	v, err := u.c.flashSale(ctx, voucherID)
	if err != nil {
		return false, err
	}
	offer, err := u.c.offerOf(ctx, voucherID, a.UserID)
	if err != nil {
		return false, err
	}
	if _, err := u.c.passOn(ctx, offer, false, u.c.ended(v, u.c.now())); errors.Is(err, ErrOfferGone) {
		return false, domain.ErrOfferExpired
	} else if err != nil {
		return false, err
	}
	return true, nil
}

// offerOf returns the unit held for the user on the sale: NO_OFFER when there is none,
// OFFER_EXPIRED when the user's place ended with its offer passed on.
func (c *core) offerOf(ctx context.Context, voucherID, userID int64) (domain.WaitlistOffer, error) {
	e, found, err := c.d.Store.Place(ctx, voucherID, userID)
	if err != nil {
		return domain.WaitlistOffer{}, err
	}
	if found && e.Offer != nil {
		return *e.Offer, nil
	}
	if !found {
		passed, err := c.d.Store.Passed(ctx, voucherID, userID)
		if err != nil {
			return domain.WaitlistOffer{}, err
		}
		if passed {
			return domain.WaitlistOffer{}, domain.ErrOfferExpired
		}
	}
	return domain.WaitlistOffer{}, domain.ErrNoOffer
}
