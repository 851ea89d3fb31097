package visitors

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// VisitorQueries count unique visitors.
type VisitorQueries struct {
	visitors Visitors
	owners   ShopOwners
	maxDays  int
}

// UniqueVisitors estimates for a the distinct visitors from one calendar day to another
// (both included; only their year, month and day count), site-wide (shopID 0: ADMINs
// only) or of one shop (its MERCHANT, or an ADMIN). The estimate is a HyperLogLog's:
// within about 1% for large counts. Errors: UNAUTHENTICATED; FORBIDDEN for anyone else;
// NOT_FOUND for an unknown shop (asked by a MERCHANT); BAD_USER_INPUT for a reversed or
// too long range.
func (q *VisitorQueries) UniqueVisitors(ctx context.Context, a domain.Actor, from, to time.Time, shopID int64) (int64, error) {
	if err := q.mayRead(ctx, a, shopID); err != nil {
		return 0, err
	}
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

// mayRead refuses a unless it may read the visitors of shopID (0: the site's).
func (q *VisitorQueries) mayRead(ctx context.Context, a domain.Actor, shopID int64) error {
	switch {
	case !a.Authenticated():
		return domain.Errorf(domain.CodeUnauthenticated, "log in first")
	case a.Role == domain.RoleAdmin:
		return nil
	case shopID <= 0 || a.Role != domain.RoleMerchant || q.owners == nil:
		return domain.Errorf(domain.CodeForbidden, "a shop's visitors are its merchant's and the administrators' to read; the site's the administrators'")
	}
	owner, err := q.owners.ShopOwner(ctx, shopID)
	if errors.Is(err, domain.ErrNotFound) {
		return domain.Errorf(domain.CodeNotFound, "no shop %d", shopID)
	}
	if err != nil {
		return fmt.Errorf("read owner of shop %d: %w", shopID, err)
	}
	if !a.CanRunShop(owner) {
		return domain.Errorf(domain.CodeForbidden, "a shop's visitors are its merchant's and the administrators' to read")
	}
	return nil
}
