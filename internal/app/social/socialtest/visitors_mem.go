package socialtest

import (
	"context"
	"sync"
	"time"

	"github.com/dealspot/dealspot/internal/app/social/visitors"
)

// visitorDay is a calendar day of the site (shop 0) or of a shop.
type visitorDay struct {
	shop  int64
	year  int
	month time.Month
	day   int
}

func visitorDayOf(shopID int64, t time.Time) visitorDay {
	return visitorDay{shop: shopID, year: t.Year(), month: t.Month(), day: t.Day()}
}

// MemVisitors is an in-memory visitors.Visitors that counts exactly: a set of visitors
// per day. Counts never expire.
type MemVisitors struct {
	mu   sync.Mutex
	days map[visitorDay]map[string]struct{}
}

var _ visitors.Visitors = (*MemVisitors)(nil)

// NewMemVisitors returns counts without visitors.
func NewMemVisitors() *MemVisitors {
	return &MemVisitors{days: map[visitorDay]map[string]struct{}{}}
}

// Record implements visitors.Visitors.
func (v *MemVisitors) Record(_ context.Context, day time.Time, shopID int64, visitors []string) error {
	if len(visitors) == 0 {
		return nil
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	k := visitorDayOf(shopID, day)
	set := v.days[k]
	if set == nil {
		set = map[string]struct{}{}
		v.days[k] = set
	}
	for _, s := range visitors {
		set[s] = struct{}{}
	}
	return nil
}

// Count implements visitors.Visitors.
func (v *MemVisitors) Count(_ context.Context, days []time.Time, shopID int64) (int64, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	union := map[string]struct{}{}
	for _, d := range days {
		for s := range v.days[visitorDayOf(shopID, d)] {
			union[s] = struct{}{}
		}
	}
	return int64(len(union)), nil
}
