// Package waitlist is the fair line for a sold-out flash sale's returned units. A user
// answered SOLD_OUT joins the sale's line; when a unit comes back (an order canceled,
// refunded or expired unpaid, or a claim that failed), the flash sale hands it here
// before its stock (Units implements seckill.Waitlist): it is held for the first in line
// for OfferTTL, out of the stock, and announced in that user's inbox. acceptOffer turns it
// into the user's order, as a claim would have; declined or run out, it passes to the
// next in line, and when nobody is left it goes back to the stock.
//
// The database is the one copy of the lines and the held units (rows with expires_at
// and announced_at); the Expirer sweeps, on every node, the offers that ran out and
// those never announced (a node stopped between holding a unit and telling its user),
// and a conditional update lets one node move each offer (invariant I8: a held unit is
// held for exactly one user at a time, and is either claimed by that user or passed on —
// never sold twice nor lost).
package waitlist

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// Config holds the waitlist's settings.
type Config struct {
	// OfferTTL is how long a returned unit is held for one user (WAITLIST_OFFER_TTL,
	// default 2m).
	OfferTTL time.Duration
	// MaxPerSale bounds the live places of one sale's line (WAITLIST_MAX_PER_SALE,
	// default 10,000).
	MaxPerSale int
	// SweepInterval is how often the offers that ran out are passed on
	// (WAITLIST_SWEEP_INTERVAL, default 1s); SweepBatch how many one pass reads at once.
	SweepInterval time.Duration
	SweepBatch    int
	// AnnounceGrace is how long after a unit is held for a user the sweep takes its
	// offer, still not announced, for one a stopped node never announced, and announces
	// it (WAITLIST_ANNOUNCE_GRACE, default 10s).
	AnnounceGrace time.Duration
	// PayTimeout is how long an accepted offer's order waits for payment, as a claimed
	// one does (ORDER_PAY_TIMEOUT).
	PayTimeout time.Duration
}

// Defaults.
const (
	DefaultOfferTTL      = 2 * time.Minute
	DefaultMaxPerSale    = 10000
	DefaultAnnounceGrace = 10 * time.Second
)

// Deps are the adapters the waitlist needs.
type Deps struct {
	Store    Store
	Sales    Sales
	Vouchers Vouchers
	IDs      IDGenerator
	// Status tells orderStatus subscribers of accepted offers' orders (nil: nobody).
	Status StatusPublisher
	// Inbox announces offers to their users (nil: they read myWaitlist).
	Inbox Inbox
	Log   *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Service is the waitlist's use cases.
type Service struct {
	Join    *JoinWaitlist
	Leave   *LeaveWaitlist
	Accept  *AcceptOffer
	Decline *DeclineOffer
	Mine    *MyWaitlist
	// Units holds returned units for the lines (seckill.Waitlist).
	Units *Units
	// Expirer passes on the offers that ran out.
	Expirer *Expirer
}

type core struct {
	cfg Config
	d   Deps
	log *slog.Logger
	now func() time.Time
}

// New checks deps and builds the use cases.
func New(cfg Config, d Deps) (*Service, error) {
	if d.Store == nil || d.Sales == nil || d.Vouchers == nil || d.IDs == nil {
		return nil, errors.New("waitlist: missing dependency")
	}
	if cfg.OfferTTL <= 0 {
		cfg.OfferTTL = DefaultOfferTTL
	}
	if cfg.MaxPerSale <= 0 {
		cfg.MaxPerSale = DefaultMaxPerSale
	}
	if cfg.SweepInterval <= 0 {
		cfg.SweepInterval = time.Second
	}
	if cfg.SweepBatch <= 0 {
		cfg.SweepBatch = 500
	}
	if cfg.AnnounceGrace <= 0 {
		cfg.AnnounceGrace = DefaultAnnounceGrace
	}
	if cfg.PayTimeout <= 0 {
		cfg.PayTimeout = 15 * time.Minute
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	c := &core{cfg: cfg, d: d, log: d.Log, now: d.Now}
	return &Service{Join: &JoinWaitlist{c}, Leave: &LeaveWaitlist{c}, Accept: &AcceptOffer{c}, Decline: &DeclineOffer{c},
		Mine: &MyWaitlist{c}, Units: &Units{c}, Expirer: &Expirer{c}}, nil
}

// flashSale reads a flash-sale voucher: NOT_FOUND for an unknown one, BAD_USER_INPUT for
// a normal voucher.
func (c *core) flashSale(ctx context.Context, voucherID int64) (domain.Voucher, error) {
	if voucherID <= 0 {
		return domain.Voucher{}, domain.Errorf(domain.CodeNotFound, "no such voucher")
	}
	v, err := c.d.Vouchers.Voucher(ctx, voucherID)
	if errors.Is(err, domain.ErrNotFound) {
		return domain.Voucher{}, domain.Errorf(domain.CodeNotFound, "no voucher %d", voucherID)
	}
	if err != nil {
		return domain.Voucher{}, fmt.Errorf("read voucher %d: %w", voucherID, err)
	}
	if v.Kind != domain.VoucherFlashSale || v.FlashSale == nil {
		return domain.Voucher{}, domain.Errorf(domain.CodeBadUserInput, "voucher %d is not a flash sale: it has no waitlist", voucherID)
	}
	return v, nil
}

// offered announces offers just made. A failure is logged: the offers stay unannounced,
// and the Expirer's sweep announces them.
func (c *core) offered(ctx context.Context, offers ...domain.WaitlistOffer) {
	if _, err := c.announce(ctx, offers); err != nil {
		c.log.Warn("cannot announce waitlist offers; the sweep will", slog.Int("offers", len(offers)), slog.Any("error", err))
	}
}

// announce tells the users of offers that units are held for them: their WAITLIST_OFFER
// notifications are written (and pushed), then the offers are marked announced, and it
// returns how many it marked. A node stopped in between, or a write that failed, leaves
// the offers unmarked and the sweep announces them again: the inbox keeps one unread
// notification per user and unit, so a repeat adds nothing while the first is unread.
func (c *core) announce(ctx context.Context, offers []domain.WaitlistOffer) (int, error) {
	if c.d.Inbox == nil || len(offers) == 0 {
		return 0, nil
	}
	ctx = context.WithoutCancel(ctx)
	events := make([]domain.NotificationEvent, len(offers))
	for i, o := range offers {
		events[i] = domain.NotificationEvent{Kind: domain.NotifyWaitlistOffer, RecipientID: o.UserID, VoucherID: o.VoucherID,
			UnitID: o.ID, At: o.OfferedAt}
	}
	if err := c.d.Inbox.Handle(ctx, events); err != nil {
		return 0, fmt.Errorf("write the notifications of %d waitlist offers: %w", len(offers), err)
	}
	now := c.now()
	marked := 0
	var errs []error
	for _, o := range offers {
		ok, err := c.d.Store.MarkAnnounced(ctx, o, now)
		if err != nil {
			errs = append(errs, err)
		} else if ok {
			marked++
		}
	}
	return marked, errors.Join(errs...)
}

// passOn moves the unit held for from down the line (or back to the stock when nobody
// waits, or restock), tells the next user, and gives a restocked unit back to the
// gate. ErrOfferGone when another move came first.
func (c *core) passOn(ctx context.Context, unit domain.WaitlistOffer, due, restock bool) (Passed, error) {
	now := c.now()
	p, err := c.d.Store.PassOn(ctx, unit.ID, unit.UserID, due, restock, now, now.Add(c.cfg.OfferTTL))
	if err != nil {
		return Passed{}, err
	}
	switch {
	case p.Next != nil:
		c.offered(ctx, *p.Next)
	case p.Restocked:
		c.restock(ctx, p.Unit)
	}
	return p, nil
}

// restock gives a unit nobody took back to the sale's live stock. A failure is logged:
// the database has the unit, and the flash sale's reconciler brings the gate in line.
func (c *core) restock(ctx context.Context, u domain.WaitlistOffer) {
	err := c.d.Sales.Restock(context.WithoutCancel(ctx), u.VoucherID, SourceUnit{OrderID: u.SourceOrderID, UserID: u.SourceUserID})
	if err != nil {
		c.log.Warn("cannot give a held unit back to the gate; the reconciler will", slog.Int64("voucher_id", u.VoucherID),
			slog.Int64("unit_id", u.ID), slog.Any("error", err))
	}
}

// loggedIn refuses an actor who is not a user (a place in line is a user's).
func loggedIn(a domain.Actor) error {
	if a.UserID <= 0 {
		return domain.Errorf(domain.CodeUnauthenticated, "log in first")
	}
	return nil
}

// isGone reports whether err says another move of the offer came first.
func isGone(err error) bool { return errors.Is(err, ErrOfferGone) }
