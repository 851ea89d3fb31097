package visitors

import (
	"context"
	"fmt"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// VisitorQueries count unique visitors.
type VisitorQueries struct {
	visitors Visitors
	maxDays  int
}

// UniqueVisitors estimates the distinct visitors from one calendar day to another (both
// included; only their year, month and day count), site-wide (shopID 0) or of one shop.
// The estimate is a HyperLogLog's: within about 1% for large counts. Errors:
// BAD_USER_INPUT for a reversed or too long range.
func (q *VisitorQueries) UniqueVisitors(ctx context.Context, from, to time.Time, shopID int64) (int64, error) {
	from = time.Date(from.Year(), from.Month(), from.Day(), 0, 0, 0, 0, time.UTC)
	to = time.Date(to.Year(), to.Month(), to.Day(), 0, 0, 0, 0, time.UTC)
	switch {
	case shopID < 0:
		return 0, domain.Errorf(domain.CodeBadUserInput, "shopId must be a positive id")
	case to.Before(from):
		return 0, domain.Errorf(domain.CodeBadUserInput, "from must not be after to")
	case to.Sub(from).Hours()/24+1 > float64(q.maxDays):
		return 0, domain.Errorf(domain.CodeBadUserInput, "the range may span at most %d days", q.maxDays)
	}
	var days []time.Time
	for d := from; !d.After(to); d = d.AddDate(0, 0, 1) {
		days = append(days, d)
	}
	n, err := q.visitors.Count(ctx, days, shopID)
	if err != nil {
		return 0, fmt.Errorf("count visitors: %w", err)
	}
	return n, nil
}
