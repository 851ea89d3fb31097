// Package visitors holds the unique-visitor counts: every view of a shop or a note
// counts its reader as one of the day's visitors, site-wide and of the shop, in Redis
// HyperLogLogs written in batches; a query estimates the distinct visitors of a range
// of days. They are derived analytics and live in Redis only.
package visitors

import (
	"log/slog"
	"time"
)

// Config holds the settings of the visitor counts.
type Config struct {
	// Location is where days begin and end.
	Location *time.Location
	// MaxDays bounds the date range of uniqueVisitors.
	MaxDays int
	// Flush is how often buffered visits are written.
	Flush time.Duration
}

// Deps are what the visitor counts need.
type Deps struct {
	Visitors Visitors
	// Owners tells a shop's merchant; nil: only ADMINs read visitor counts.
	Owners ShopOwners
	Now    func() time.Time
	Log    *slog.Logger
}

// Service gathers the visitor use cases.
type Service struct {
	// Visits counts views (shop.ViewCounter, notes.ViewCounter) and writes them.
	Visits  *Visits
	Queries *VisitorQueries
}

// New builds the visitor use cases over d, whose ports the caller (social.New) checked,
// and starts the background writer of visits; Visits.Close stops it.
func New(cfg Config, d Deps) *Service {
	buf := startVisitBuffer(d.Visitors, cfg.Location, cfg.Flush, d.Log)
	return &Service{
		Visits:  &Visits{buffer: buf, now: d.Now, loc: cfg.Location},
		Queries: &VisitorQueries{visitors: d.Visitors, owners: d.Owners, maxDays: cfg.MaxDays},
	}
}
