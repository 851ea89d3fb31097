// Package reminders holds sale reminders: a signed-in user asks to be told shortly
// before a flash sale begins (remindMe), or takes that back (cancelReminder); a sender
// that every node runs writes a SALE_REMINDER notification SALE_REMINDER_BEFORE before
// the sale's begin time, as the sale stands then, once per user and sale — the database
// decides which node sends each reminder, in the transaction that writes it. The shop's
// merchant (and ADMINs) see how many users asked; each user sees whether they did.
package reminders

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/dealspot/dealspot/internal/app/batchread"
	"github.com/dealspot/dealspot/internal/domain"
)

// Defaults of Config.
const (
	// DefaultMaxPerUser is MaxPerUser's default (REMINDERS_MAX_PER_USER).
	DefaultMaxPerUser = 200
	// DefaultBefore is Before's default (SALE_REMINDER_BEFORE).
	DefaultBefore = 5 * time.Minute
	// DefaultInterval is Interval's default (SALE_REMINDER_INTERVAL).
	DefaultInterval = 5 * time.Second
	// DefaultBatch is Batch's default.
	DefaultBatch = 200
)

// Config holds the reminders' settings; zero values take the defaults.
type Config struct {
	// MaxPerUser is how many reminders still waiting one user holds at most; one more
	// is BAD_USER_INPUT.
	MaxPerUser int
	// Before is how long before a sale begins its reminders are sent.
	Before time.Duration
	// Interval is how often each node's sender looks for due reminders.
	Interval time.Duration
	// Batch is how many reminders one transaction of the sender claims and writes.
	Batch int
}

// Deps are what the reminders' use cases need.
type Deps struct {
	Store  Store
	Sales  Sales
	Owners ShopOwners
	Bus    Bus
	Log    *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Service gathers the reminders' use cases; Sender is run by the server itself.
type Service struct {
	Commands *Commands
	Queries  *Queries
	Sender   *Sender
}

// New checks cfg and d and builds the use cases.
func New(cfg Config, d Deps) (*Service, error) {
	if d.Store == nil || d.Sales == nil || d.Owners == nil || d.Bus == nil {
		return nil, errors.New("reminders: missing dependency")
	}
	if cfg.MaxPerUser < 0 || cfg.Before < 0 || cfg.Interval < 0 || cfg.Batch < 0 {
		return nil, errors.New("reminders: limits must not be negative")
	}
	if cfg.MaxPerUser == 0 {
		cfg.MaxPerUser = DefaultMaxPerUser
	}
	if cfg.Before == 0 {
		cfg.Before = DefaultBefore
	}
	if cfg.Interval == 0 {
		cfg.Interval = DefaultInterval
	}
	if cfg.Batch == 0 {
		cfg.Batch = DefaultBatch
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	return &Service{
		Commands: &Commands{store: d.Store, sales: d.Sales, max: cfg.MaxPerUser, now: d.Now},
		Queries:  &Queries{store: d.Store, sales: d.Sales, owners: d.Owners},
		Sender:   &Sender{store: d.Store, bus: d.Bus, cfg: cfg, now: d.Now, log: d.Log},
	}, nil
}

// Commands ask for and take back reminders.
type Commands struct {
	store Store
	sales Sales
	max   int
	now   func() time.Time
}

// upcoming returns the flash sale voucherID names if a reminder may be set or taken
// back now. Errors: UNAUTHENTICATED without a user; BAD_USER_INPUT for a bad id or a
// voucher that is no flash sale; NOT_FOUND for an unknown voucher; ALREADY_STARTED
// once the sale has begun; ENDED once it is over.
func (c *Commands) upcoming(ctx context.Context, userID, voucherID int64) error {
	switch {
	case userID <= 0:
		return domain.Errorf(domain.CodeUnauthenticated, "log in first")
	case voucherID <= 0:
		return domain.Errorf(domain.CodeBadUserInput, "voucherId must be a positive id")
	}
	v, found, err := c.sales.Voucher(ctx, voucherID)
	if err != nil {
		return fmt.Errorf("read voucher %d: %w", voucherID, err)
	}
	if !found {
		return domain.Errorf(domain.CodeNotFound, "no voucher %d", voucherID)
	}
	if v.FlashSale == nil {
		return domain.Errorf(domain.CodeBadUserInput, "voucher %d is no flash sale: it is on sale at any time", voucherID)
	}
	now := c.now()
	if !now.Before(v.FlashSale.EndTime) {
		return domain.Errorf(domain.CodeEnded, "the sale of voucher %d is over", voucherID)
	}
	if !now.Before(v.FlashSale.BeginTime) {
		return domain.Errorf(domain.CodeAlreadyStarted, "the sale of voucher %d has begun: claim it now", voucherID)
	}
	return nil
}

// RemindMe asks for a SALE_REMINDER notification shortly before the flash sale of
// voucherID begins. Asking again changes nothing, also past the limit. Errors as
// upcoming's, and BAD_USER_INPUT once the user holds MaxPerUser reminders still
// waiting.
func (c *Commands) RemindMe(ctx context.Context, userID, voucherID int64) error {
	if err := c.upcoming(ctx, userID, voucherID); err != nil {
		return err
	}
	r := domain.SaleReminder{UserID: userID, VoucherID: voucherID, CreatedAt: c.now()}
	_, err := c.store.Add(ctx, r, func(waiting int) error {
		if waiting >= c.max {
			return domain.Errorf(domain.CodeBadUserInput,
				"you are waiting for %d sale reminders, the most allowed: cancel some before adding more", waiting)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("remind of sale %d: %w", voucherID, err)
	}
	return nil
}

// CancelReminder takes the user's reminder of the sale back, so it is not sent;
// taking back one that is not there changes nothing. Errors as upcoming's.
func (c *Commands) CancelReminder(ctx context.Context, userID, voucherID int64) error {
	if err := c.upcoming(ctx, userID, voucherID); err != nil {
		return err
	}
	if _, err := c.store.Remove(ctx, userID, voucherID); err != nil {
		return fmt.Errorf("cancel reminder of sale %d: %w", voucherID, err)
	}
	return nil
}

// Queries read reminders.
type Queries struct {
	store  Store
	sales  Sales
	owners ShopOwners
}

// Reminded tells which of voucherIDs the user asked to be reminded of: none for an
// anonymous caller (userID 0), without asking the store.
func (q *Queries) Reminded(ctx context.Context, userID int64, voucherIDs []int64) (map[int64]bool, error) {
	ids := batchread.PositiveIDs(voucherIDs)
	if userID <= 0 || len(ids) == 0 {
		return map[int64]bool{}, nil
	}
	m, err := q.store.Reminded(ctx, userID, ids)
	if err != nil {
		return nil, fmt.Errorf("read reminders: %w", err)
	}
	return m, nil
}

// Counts tells a how many users asked to be reminded of each of voucherIDs that a may
// see the count of: the sales of the shops a runs (MERCHANT of the shop), every sale
// for an ADMIN. The others are left out, without reading their counts; a USER or an
// anonymous caller gets none, without any read.
func (q *Queries) Counts(ctx context.Context, a domain.Actor, voucherIDs []int64) (map[int64]int, error) {
	ids := batchread.PositiveIDs(voucherIDs)
	out := make(map[int64]int, len(ids))
	if !a.Authenticated() || !a.Role.AtLeast(domain.RoleMerchant) || len(ids) == 0 {
		return out, nil
	}
	allowed, err := q.ofShopsRun(ctx, a, ids)
	if err != nil || len(allowed) == 0 {
		return out, err
	}
	counts, err := q.store.Counts(ctx, allowed)
	if err != nil {
		return nil, fmt.Errorf("count reminders: %w", err)
	}
	for _, id := range allowed {
		out[id] = counts[id]
	}
	return out, nil
}

// ofShopsRun returns those of ids that are vouchers of shops a runs.
func (q *Queries) ofShopsRun(ctx context.Context, a domain.Actor, ids []int64) ([]int64, error) {
	owners := map[int64]int64{} // shop → owner, read once per shop
	var allowed []int64
	for _, id := range ids {
		v, found, err := q.sales.Voucher(ctx, id)
		if err != nil {
			return nil, fmt.Errorf("read voucher %d: %w", id, err)
		}
		if !found {
			continue
		}
		if a.Role != domain.RoleAdmin {
			owner, ok := owners[v.ShopID]
			if !ok {
				owner, err = q.owners.ShopOwner(ctx, v.ShopID)
				if errors.Is(err, domain.ErrNotFound) {
					continue
				}
				if err != nil {
					return nil, fmt.Errorf("read owner of shop %d: %w", v.ShopID, err)
				}
				owners[v.ShopID] = owner
			}
			if !a.CanRunShop(owner) {
				continue
			}
		}
		allowed = append(allowed, id)
	}
	return allowed, nil
}
