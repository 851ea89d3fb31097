package signins

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// SignInStatus is a user's sign-ins in one month.
type SignInStatus struct {
	// Month is YYYY-MM.
	Month string
	// SignedDays are the days of the month signed, ascending.
	SignedDays []int
	// ConsecutiveDays counts the signed days in a row that end today (for the current
	// month; 0 when today is not signed yet), or the month's last day (for a past month).
	ConsecutiveDays int
}

// monthLayout is how months are written.
const monthLayout = "2006-01"

// SignInCommands sign users in for the day.
type SignInCommands struct {
	store SignInStore
	cache SignIns
	cal   calendar
	log   *slog.Logger
}

// SignIn signs userID in for today (in the configured time zone). Signing again the same
// day changes nothing. The relational store keeps the sign-in; the Redis bitmap of the
// month follows.
func (c *SignInCommands) SignIn(ctx context.Context, userID int64) (SignInStatus, error) {
	today := c.cal.today()
	mask, err := c.store.Sign(ctx, userID, today)
	if err != nil {
		return SignInStatus{}, fmt.Errorf("sign in: %w", err)
	}
	// The sign-in is stored; a client that goes away must not leave the cache behind.
	if err := c.cache.Merge(context.WithoutCancel(ctx), userID, today, mask); err != nil {
		// A cached month expires, so a missed write is corrected by a later read at the
		// latest; the next sign-in corrects it sooner.
		c.log.Warn("cannot cache a sign-in", slog.Int64("user_id", userID), slog.Any("error", err))
	}
	return signInStatus(today, today, mask), nil
}

// SignInQueries read users' sign-ins.
type SignInQueries struct {
	store SignInStore
	cache SignIns
	cal   calendar
	log   *slog.Logger
}

// SignInStatus returns userID's sign-ins in month (YYYY-MM; "" for the current month).
// Errors: BAD_USER_INPUT for a malformed month.
func (q *SignInQueries) SignInStatus(ctx context.Context, userID int64, month string) (SignInStatus, error) {
	today := q.cal.today()
	m := today
	if month != "" {
		t, err := time.ParseInLocation(monthLayout, month, q.cal.loc)
		if err != nil || t.Year() < 2000 {
			return SignInStatus{}, domain.Errorf(domain.CodeBadUserInput, "month must be YYYY-MM, e.g. %s", today.Format(monthLayout))
		}
		m = t
	}
	mask, err := q.signedDays(ctx, userID, m)
	if err != nil {
		return SignInStatus{}, fmt.Errorf("read sign-ins: %w", err)
	}
	return signInStatus(m, today, mask), nil
}

// signedDays returns userID's signed days in month from the cache, loading the month from
// the store when the cache lacks it.
func (q *SignInQueries) signedDays(ctx context.Context, userID int64, month time.Time) (uint32, error) {
	mask, cached, err := q.cache.Month(ctx, userID, month)
	if err != nil || cached {
		return mask, err
	}
	if mask, err = q.store.Month(ctx, userID, month); err != nil {
		return 0, err
	}
	if err := q.cache.Merge(context.WithoutCancel(ctx), userID, month, mask); err != nil {
		q.log.Warn("cannot cache sign-ins", slog.Int64("user_id", userID), slog.Any("error", err))
	}
	return mask, nil
}

// daysIn returns the number of days of t's month.
func daysIn(t time.Time) int {
	return time.Date(t.Year(), t.Month()+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// signInStatus reads a month's mask (bit d-1 for day d) as of today.
func signInStatus(month, today time.Time, mask uint32) SignInStatus {
	st := SignInStatus{Month: month.Format(monthLayout), SignedDays: []int{}}
	n := daysIn(month)
	for d := 1; d <= n; d++ {
		if mask&(1<<(d-1)) != 0 {
			st.SignedDays = append(st.SignedDays, d)
		}
	}
	var last int
	switch y, m := month.Year(), month.Month(); {
	case y == today.Year() && m == today.Month():
		last = today.Day()
	case y < today.Year() || (y == today.Year() && m < today.Month()):
		last = n
	}
	for d := last; d >= 1 && mask&(1<<(d-1)) != 0; d-- {
		st.ConsecutiveDays++
	}
	return st
}
