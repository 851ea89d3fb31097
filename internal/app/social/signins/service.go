// Package signins holds the daily sign-in: signing in for today (which earns credits)
// and reading a month's signed days with the run of days in a row, counted across
// months. The relational store keeps every sign-in; Redis caches one bitmap per user per
// month.
package signins

import (
	"log/slog"
	"time"
)

// Deps are what the sign-in use cases need.
type Deps struct {
	// Store keeps sign-ins; Cache caches them.
	Store SignInStore
	Cache SignIns
	// Credits award the sign-ins' credits.
	Credits Credits
	// Location is where days begin and end; Now is the clock.
	Location *time.Location
	Now      func() time.Time
	Log      *slog.Logger
}

// Service gathers the sign-in use cases.
type Service struct {
	Commands *SignInCommands
	Queries  *SignInQueries
	// Legacy copies the sign-ins only Redis held into the store.
	Legacy *LegacyImport
}

// New builds the sign-in use cases over d, whose ports the caller (social.New) checked.
func New(d Deps) *Service {
	cal := calendar{now: d.Now, loc: d.Location}
	m := &months{store: d.Store, cache: d.Cache, log: d.Log}
	return &Service{
		Commands: &SignInCommands{months: m, credits: d.Credits, cal: cal},
		Queries:  &SignInQueries{months: m, cal: cal},
		Legacy:   &LegacyImport{cache: d.Cache, store: d.Store},
	}
}

// calendar tells the current day in the configured time zone.
type calendar struct {
	now func() time.Time
	loc *time.Location
}

// today is the current calendar day in the configured time zone.
func (c calendar) today() time.Time {
	return c.now().In(c.loc)
}
