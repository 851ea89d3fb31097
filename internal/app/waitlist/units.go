package waitlist

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/dealspot/dealspot/internal/app/periodic"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
)

// MyWaitlist reads a user's places.
type MyWaitlist struct{ c *core }

// Handle lists the caller's live places, oldest first, each with its live position and
// the unit held for the caller, if any. Errors: UNAUTHENTICATED.
func (q *MyWaitlist) Handle(ctx context.Context, a domain.Actor) ([]domain.WaitlistEntry, error) {
	if err := loggedIn(a); err != nil {
		return nil, err
	}
	return q.c.d.Store.PlacesOfUser(ctx, a.UserID)
}

// Units holds a sale's returned units for its line: the flash sale hands every unit that
// comes back here first (seckill.Waitlist).
type Units struct{ c *core }

var _ seckill.Waitlist = (*Units)(nil)

// Hold implements seckill.Waitlist: while the sale is on, each unit is held for the
// first in line, out of the stock, for OfferTTL, and its user is told. Units held before
// — by the transaction that released their orders (orders.LineHold), or an earlier call
// — are reported held, also once the sale has ended; those still held and not announced
// yet are announced.
func (u *Units) Hold(ctx context.Context, voucherID int64, units []seckill.ReturnedUnit) (map[int64]bool, error) {
	if len(units) == 0 {
		return nil, nil
	}
	now, expires, err := u.offerWindow(ctx, voucherID)
	if err != nil {
		return nil, err
	}
	held, err := u.c.d.Store.Hold(ctx, voucherID, units, now, expires)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]bool, len(held))
	var untold []domain.WaitlistOffer
	for _, h := range held {
		if h.Offer.Status == domain.UnitNotOffered {
			continue
		}
		out[h.Offer.SourceOrderID] = true
		if unannounced(h.Offer) {
			untold = append(untold, h.Offer)
		}
	}
	u.c.offered(ctx, untold...)
	return out, nil
}

// HoldDropped implements seckill.Waitlist: the unit of a failed claim is held for the
// first in line while the sale is on and someone waits, and announced; otherwise it is
// recorded as the stock's. Either way the answer stays the same for the claim.
func (u *Units) HoldDropped(ctx context.Context, voucherID int64, unit seckill.ReturnedUnit) (bool, error) {
	now, expires, err := u.offerWindow(ctx, voucherID)
	if err != nil {
		return false, err
	}
	h, err := u.c.d.Store.Route(ctx, voucherID, unit, now, expires)
	if err != nil {
		return false, err
	}
	if h.Offer.Status == domain.UnitNotOffered {
		return false, nil
	}
	if unannounced(h.Offer) {
		u.c.offered(ctx, h.Offer)
	}
	return true, nil
}

// offerWindow is when an offer made now runs out: zero once the sale is over (nobody can
// claim any more, units not held go back to the stock).
func (u *Units) offerWindow(ctx context.Context, voucherID int64) (now, expires time.Time, err error) {
	v, err := u.c.d.Vouchers.Voucher(ctx, voucherID)
	if err != nil {
		return now, expires, fmt.Errorf("read voucher %d: %w", voucherID, err)
	}
	now = u.c.now()
	if !u.c.ended(v, now) {
		expires = now.Add(u.c.cfg.OfferTTL)
	}
	return now, expires, nil
}

// unannounced reports whether o is held for its user and was never announced to them.
func unannounced(o domain.WaitlistOffer) bool {
	return o.Status == domain.UnitHeld && o.AnnouncedAt == nil
}

// OfferTTL implements seckill.Waitlist.
func (u *Units) OfferTTL() time.Duration { return u.c.cfg.OfferTTL }

// HeldUnits implements seckill.Waitlist: the sale's units held for its line.
func (u *Units) HeldUnits(ctx context.Context, voucherID int64) (int64, error) {
	return u.c.d.Store.HeldUnits(ctx, voucherID)
}

// ended reports whether v's sale is over at now (its held units then go back to the
// stock rather than down the line).
func (c *core) ended(v domain.Voucher, now time.Time) bool {
	return v.FlashSale == nil || !now.Before(v.FlashSale.EndTime)
}

// Expirer passes on the offers that ran out, and announces the offers never announced,
// on every node: the offers are rows with their deadline and announcement, so a
// restarted node finds them, and the store's conditional moves let one node pass each.
type Expirer struct{ c *core }

// RunOnce passes on every offer that ran out by now, then announces the offers held
// AnnounceGrace ago or earlier that are still running and were never announced (the node
// that held the unit stopped before telling its user). It returns how many offers it
// passed on and how many it announced.
func (w *Expirer) RunOnce(ctx context.Context) (passed, announced int, err error) {
	passed, perr := w.passDue(ctx)
	announced, aerr := w.announceMissed(ctx)
	return passed, announced, errors.Join(perr, aerr)
}

// passDue passes on every offer that ran out by now and returns how many it passed.
func (w *Expirer) passDue(ctx context.Context) (int, error) {
	total := 0
	ended := map[int64]bool{}
	for {
		due, err := w.c.d.Store.DueOffers(ctx, w.c.now(), w.c.cfg.SweepBatch)
		if err != nil {
			return total, err
		}
		moved := 0
		for _, o := range due {
			over, ok := ended[o.VoucherID]
			if !ok {
				v, err := w.c.d.Vouchers.Voucher(ctx, o.VoucherID)
				if err != nil {
					return total, fmt.Errorf("read voucher %d: %w", o.VoucherID, err)
				}
				over = w.c.ended(v, w.c.now())
				ended[o.VoucherID] = over
			}
			if _, err := w.c.passOn(ctx, o, true, over); err == nil {
				moved++
			} else if !isGone(err) {
				return total, err
			}
		}
		total += moved
		if len(due) < w.c.cfg.SweepBatch || moved == 0 {
			return total, nil
		}
	}
}

// announceMissed announces the running offers held AnnounceGrace ago or earlier that were
// never announced, and returns how many it announced. Sweeps of several nodes may write
// one notification together: the inbox keeps it once.
func (w *Expirer) announceMissed(ctx context.Context) (int, error) {
	if w.c.d.Inbox == nil {
		return 0, nil
	}
	total := 0
	for {
		now := w.c.now()
		missed, err := w.c.d.Store.Unannounced(ctx, now.Add(-w.c.cfg.AnnounceGrace), now, w.c.cfg.SweepBatch)
		if err != nil {
			return total, fmt.Errorf("list offers not announced: %w", err)
		}
		marked, err := w.c.announce(ctx, missed)
		total += marked
		if err != nil {
			return total, err
		}
		if len(missed) < w.c.cfg.SweepBatch || marked == 0 {
			return total, nil
		}
	}
}

// Run sweeps every SweepInterval until ctx ends.
func (w *Expirer) Run(ctx context.Context) {
	periodic.Every(ctx, w.c.cfg.SweepInterval, func() {
		passed, announced, err := w.RunOnce(ctx)
		if err != nil && ctx.Err() == nil {
			w.c.log.Warn("waitlist sweep failed; the next one tries again", slog.Int("passed", passed),
				slog.Int("announced", announced), slog.Any("error", err))
			return
		}
		if passed > 0 {
			w.c.log.Info("waitlist offers that ran out passed on", slog.Int("offers", passed))
		}
		if announced > 0 {
			w.c.log.Info("waitlist offers never announced are announced now", slog.Int("offers", announced))
		}
	})
}
