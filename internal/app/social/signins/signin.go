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
	// ConsecutiveDays counts the signed days in a row, across month boundaries, that end
	// today — or yesterday while today is not signed yet — for the current month, on its
	// last day for a past month; 0 for a future month.
	ConsecutiveDays int
	// SignedToday is whether the user signed in today.
	SignedToday bool
}

// monthLayout is how months are written.
const monthLayout = "2006-01"

// SignInCommands sign users in for the day.
type SignInCommands struct {
	months  *months
	credits Credits
	cal     calendar
}

// SignIn signs userID in for today (in the configured time zone) and awards the day's
// credits. Signing again the same day changes nothing, nor awards anything. The
// relational store keeps the sign-in and the award; the Redis bitmap of the month
// follows. Should the award fail, the call fails and a retry awards it.
func (c *SignInCommands) SignIn(ctx context.Context, userID int64) (SignInStatus, error) {
	today := c.cal.today()
	mask, err := c.months.store.Sign(ctx, userID, today)
	if err != nil {
		return SignInStatus{}, fmt.Errorf("sign in: %w", err)
	}
	// The sign-in is stored; a client that goes away must not leave the cache behind.
	if err := c.months.cache.Merge(context.WithoutCancel(ctx), userID, today, mask); err != nil {
		// A cached month expires, so a missed write is corrected by a later read at the
		// latest; the next sign-in corrects it sooner.
		c.months.log.Warn("cannot cache a sign-in", slog.Int64("user_id", userID), slog.Any("error", err))
	}
	st, err := c.months.status(ctx, userID, today, today, mask, mask)
	if err != nil {
		return SignInStatus{}, err
	}
	day := int64(today.Year()*10000 + int(today.Month())*100 + today.Day())
	if _, err := c.credits.Award(context.WithoutCancel(ctx), domain.SignInAward(userID, day, st.ConsecutiveDays)); err != nil {
		return SignInStatus{}, fmt.Errorf("award the sign-in's credits: %w", err)
	}
	return st, nil
}

// SignInQueries read users' sign-ins.
type SignInQueries struct {
	months *months
	cal    calendar
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
	todays, err := q.months.signedDays(ctx, userID, today)
	if err != nil {
		return SignInStatus{}, fmt.Errorf("read sign-ins: %w", err)
	}
	mask := todays
	if !sameMonth(m, today) {
		if mask, err = q.months.signedDays(ctx, userID, m); err != nil {
			return SignInStatus{}, fmt.Errorf("read sign-ins: %w", err)
		}
	}
	return q.months.status(ctx, userID, m, today, mask, todays)
}

// months reads users' months of sign-ins through the cache.
type months struct {
	store SignInStore
	cache SignIns
	log   *slog.Logger
}

// signedDays returns userID's signed days in month from the cache, loading the month from
// the store when the cache lacks it (or cannot answer: the store has every sign-in).
func (r *months) signedDays(ctx context.Context, userID int64, month time.Time) (uint32, error) {
	mask, cached, err := r.cache.Month(ctx, userID, month)
	if err != nil {
		r.log.Warn("cannot read cached sign-ins; reading the database", slog.Int64("user_id", userID), slog.Any("error", err))
		return r.store.Month(ctx, userID, month)
	}
	if cached {
		return mask, nil
	}
	if mask, err = r.store.Month(ctx, userID, month); err != nil {
		return 0, err
	}
	if err := r.cache.Merge(context.WithoutCancel(ctx), userID, month, mask); err != nil {
		r.log.Warn("cannot cache sign-ins", slog.Int64("user_id", userID), slog.Any("error", err))
	}
	return mask, nil
}

// status is the status of month (its signed days mask) as of today (whose month's
// signed days are todays), with the run of signed days counted back across months
// through the cache.
func (r *months) status(ctx context.Context, userID int64, month, today time.Time, mask, todays uint32) (SignInStatus, error) {
	st := SignInStatus{Month: month.Format(monthLayout), SignedDays: signedDays(month, mask), SignedToday: signed(todays, today.Day())}
	end, ok := runEnd(month, today, st.SignedToday)
	if !ok {
		return st, nil
	}
	endMask := mask
	if !sameMonth(end, month) {
		// Today is the 1st, not signed yet: the run ends on the last day of last month.
		var err error
		if endMask, err = r.signedDays(ctx, userID, end); err != nil {
			return SignInStatus{}, fmt.Errorf("read sign-ins: %w", err)
		}
	}
	n, err := runBack(end, endMask, func(m time.Time) (uint32, error) { return r.signedDays(ctx, userID, m) })
	if err != nil {
		return SignInStatus{}, fmt.Errorf("read sign-ins: %w", err)
	}
	st.ConsecutiveDays = n
	return st, nil
}

// runEnd is the day the run of month's status ends on, as of today: today, or yesterday
// while today is not signed, for the current month; the last day of a past month. A
// future month has none.
func runEnd(month, today time.Time, signedToday bool) (time.Time, bool) {
	y, m := month.Year(), month.Month()
	switch {
	case sameMonth(month, today):
		if signedToday {
			return today, true
		}
		return today.AddDate(0, 0, -1), true
	case y < today.Year() || (y == today.Year() && m < today.Month()):
		return time.Date(y, m, daysIn(month), 12, 0, 0, 0, today.Location()), true
	}
	return time.Time{}, false
}

// earliestMonth bounds how far back a run is followed: sign-ins start in 2000.
var earliestMonth = time.Date(2000, time.January, 1, 0, 0, 0, 0, time.UTC)

// runBack counts the signed days in a row that end on day end, whose month's signed days
// are mask, reading the months before it with read while the run goes on through them.
func runBack(end time.Time, mask uint32, read func(month time.Time) (uint32, error)) (int, error) {
	n := 0
	month, d := end, end.Day()
	for {
		for ; d >= 1 && signed(mask, d); d-- {
			n++
		}
		if d >= 1 {
			return n, nil
		}
		// Signed back to the 1st: the run may go on from the month before's last day.
		month = time.Date(month.Year(), month.Month()-1, 1, 12, 0, 0, 0, month.Location())
		if month.Before(earliestMonth) {
			return n, nil
		}
		var err error
		if mask, err = read(month); err != nil {
			return 0, err
		}
		d = daysIn(month)
	}
}

// signed reports whether day d is set in mask (bit d-1).
func signed(mask uint32, d int) bool { return d >= 1 && d <= 31 && mask&(1<<(d-1)) != 0 }

// sameMonth reports whether a and b fall in the same calendar month.
func sameMonth(a, b time.Time) bool { return a.Year() == b.Year() && a.Month() == b.Month() }

// daysIn returns the number of days of t's month.
func daysIn(t time.Time) int {
	return time.Date(t.Year(), t.Month()+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// signedDays lists the days of month set in mask (bit d-1 for day d), ascending.
func signedDays(month time.Time, mask uint32) []int {
	days := []int{}
	for d := 1; d <= daysIn(month); d++ {
		if signed(mask, d) {
			days = append(days, d)
		}
	}
	return days
}
