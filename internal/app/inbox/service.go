// Package inbox holds the users' notification inboxes: what the social and order use
// cases report (domain.NotificationEvent, through their Notifier ports) becomes, later
// and away from the request that caused it, a notification of each user concerned —
// never of the user who acted — as their settings allow. Actions of one group collapse
// into one unread notification ("B and 12 others liked your note"). The inbox keeps
// each user's newest Keep notifications. Readers page their inbox, count the unread,
// mark them read, change their settings, and follow new ones as they come (Watch).
//
// The events reach the Writer through a queue the composition root picks (see
// Writer.Handle): the social use cases never wait for a notification to be written.
package inbox

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// Config holds the inbox's settings.
type Config struct {
	// Keep is how many notifications each user keeps, the newest (NOTIFICATIONS_KEEP).
	Keep int
	// Pages bounds notifications.
	Pages domain.PageLimits
	// MaxFanout bounds the users one published note or sale reaches.
	MaxFanout Fanout
	// ExpiryWarningBefore is how long before its pay deadline an unpaid order's buyer is
	// warned (ORDER_EXPIRY_WARNING_BEFORE); ExpiryWarningInterval how often due
	// warnings are looked for (ORDER_EXPIRY_WARNING_INTERVAL); ExpiryWarningBatch how
	// many one look takes at most.
	ExpiryWarningBefore   time.Duration
	ExpiryWarningInterval time.Duration
	ExpiryWarningBatch    int
}

// Fanout bounds, per event, how many users an event that reaches an audience is
// written for: the first that many, by user id; the others are not told of it.
type Fanout struct {
	// FollowedNote bounds the followers of a note's author read for FOLLOWED_NOTE
	// (NOTIFY_FOLLOWED_NOTE_MAX_FANOUT); only those who turned followedNotes on are
	// told.
	FollowedNote int
	// ShopSale bounds the fans of a shop told of its new sale (SHOP_NEW_SALE,
	// NOTIFY_SHOP_SALE_MAX_FANOUT).
	ShopSale int
}

// Deps are the adapters the inbox needs.
type Deps struct {
	Store    Store
	Bus      Bus
	Blogs    Blogs
	Users    Users
	Orders   Orders
	Audience Audience
	Sales    Sales
	// Warnings finds and marks the unpaid orders to warn; nil: no warnings are sent.
	Warnings ExpiryWarnings
	Log      *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Service gathers the inbox's use cases. Writer is run by the server itself.
type Service struct {
	Commands *Commands
	Queries  *Queries
	Writer   *Writer
	// ExpiryWarner is nil without Deps.Warnings.
	ExpiryWarner *ExpiryWarner
}

// New checks cfg and d and builds the use cases.
func New(cfg Config, d Deps) (*Service, error) {
	if d.Store == nil || d.Bus == nil || d.Blogs == nil || d.Users == nil || d.Orders == nil || d.Audience == nil || d.Sales == nil {
		return nil, errors.New("inbox: missing dependency")
	}
	if cfg.Keep <= 0 {
		return nil, fmt.Errorf("inbox: keep %d notifications: must be positive", cfg.Keep)
	}
	if cfg.MaxFanout.FollowedNote < 0 || cfg.MaxFanout.ShopSale < 0 {
		return nil, errors.New("inbox: a fan-out bound must not be negative")
	}
	if d.Warnings != nil && (cfg.ExpiryWarningBefore <= 0 || cfg.ExpiryWarningInterval <= 0 || cfg.ExpiryWarningBatch <= 0) {
		return nil, errors.New("inbox: expiry warnings need a positive ExpiryWarningBefore, ExpiryWarningInterval and ExpiryWarningBatch")
	}
	if err := cfg.Pages.Validate(); err != nil {
		return nil, fmt.Errorf("inbox: %w", err)
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	views := &viewer{blogs: d.Blogs, users: d.Users, orders: d.Orders, sales: d.Sales}
	svc := &Service{
		Commands: &Commands{store: d.Store},
		Queries:  &Queries{store: d.Store, bus: d.Bus, views: views, pages: cfg.Pages, log: d.Log},
		Writer: &Writer{store: d.Store, bus: d.Bus, blogs: d.Blogs, audience: d.Audience, keep: cfg.Keep,
			maxFanout: cfg.MaxFanout, now: d.Now, log: d.Log},
	}
	if d.Warnings != nil {
		svc.ExpiryWarner = &ExpiryWarner{orders: d.Warnings, writer: svc.Writer, before: cfg.ExpiryWarningBefore,
			interval: cfg.ExpiryWarningInterval, batch: cfg.ExpiryWarningBatch, now: d.Now, log: d.Log}
	}
	return svc, nil
}
