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
}

// Deps are the adapters the inbox needs.
type Deps struct {
	Store  Store
	Bus    Bus
	Blogs  Blogs
	Users  Users
	Orders Orders
	// Vouchers reads the sales of SALE_REMINDER notifications; nil leaves their
	// vouchers out of the views (and the sale's title out of their text).
	Vouchers Vouchers
	Log      *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Service gathers the inbox's use cases. Writer is run by the server itself.
type Service struct {
	Commands *Commands
	Queries  *Queries
	Writer   *Writer
}

// New checks cfg and d and builds the use cases.
func New(cfg Config, d Deps) (*Service, error) {
	if d.Store == nil || d.Bus == nil || d.Blogs == nil || d.Users == nil || d.Orders == nil {
		return nil, errors.New("inbox: missing dependency")
	}
	if cfg.Keep <= 0 {
		return nil, fmt.Errorf("inbox: keep %d notifications: must be positive", cfg.Keep)
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
	views := &viewer{blogs: d.Blogs, users: d.Users, orders: d.Orders, vouchers: d.Vouchers}
	return &Service{
		Commands: &Commands{store: d.Store},
		Queries:  &Queries{store: d.Store, bus: d.Bus, views: views, pages: cfg.Pages, log: d.Log},
		Writer:   &Writer{store: d.Store, bus: d.Bus, blogs: d.Blogs, keep: cfg.Keep, now: d.Now, log: d.Log},
	}, nil
}
