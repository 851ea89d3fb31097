package social

import (
	"context"
	"fmt"
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

// SignIn signs userID in for today (in the configured time zone). Signing again the same
// day changes nothing.
func (s *Service) SignIn(ctx context.Context, userID int64) (SignInStatus, error) {
	today := s.today()
	mask, err := s.d.SignIns.Sign(ctx, userID, today)
	if err != nil {
		return SignInStatus{}, fmt.Errorf("sign in: %w", err)
	}
	return signInStatus(today, today, mask), nil
}

// SignInStatus returns userID's sign-ins in month (YYYY-MM; "" for the current month).
// Errors: BAD_USER_INPUT for a malformed month.
func (s *Service) SignInStatus(ctx context.Context, userID int64, month string) (SignInStatus, error) {
	today := s.today()
	m := today
	if month != "" {
		t, err := time.ParseInLocation(monthLayout, month, s.cfg.Location)
		if err != nil || t.Year() < 2000 {
			return SignInStatus{}, domain.Errorf(domain.CodeBadUserInput, "month must be YYYY-MM, e.g. %s", today.Format(monthLayout))
		}
		m = t
	}
	mask, err := s.d.SignIns.Month(ctx, userID, m)
	if err != nil {
		return SignInStatus{}, fmt.Errorf("read sign-ins: %w", err)
	}
	return signInStatus(m, today, mask), nil
}

// today is the current calendar day in the configured time zone.
func (s *Service) today() time.Time {
	return s.now().In(s.cfg.Location)
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
