package signins

import (
	"slices"
	"testing"
	"time"
)

func mask(days ...int) uint32 {
	var m uint32
	for _, d := range days {
		m |= 1 << (d - 1)
	}
	return m
}

func TestSignInStatusCountsBackFromToday(t *testing.T) {
	t.Parallel()
	today := time.Date(2030, time.April, 12, 9, 0, 0, 0, time.UTC)
	cases := []struct {
		name        string
		month       time.Time
		mask        uint32
		wantDays    []int
		wantStreak  int
		wantMonthID string
	}{
		{"nothing signed", today, 0, []int{}, 0, "2030-04"},
		{"a run up to today after a gap", today, mask(1, 2, 3, 5, 9, 10, 11, 12), []int{1, 2, 3, 5, 9, 10, 11, 12}, 4, "2030-04"},
		{"today not signed yet", today, mask(9, 10, 11), []int{9, 10, 11}, 0, "2030-04"},
		{"only today", today, mask(12), []int{12}, 1, "2030-04"},
		{"every day to today", today, mask(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12), []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 12, "2030-04"},
		{"past month counts back from its last day", time.Date(2030, time.February, 1, 0, 0, 0, 0, time.UTC), mask(1, 26, 27, 28), []int{1, 26, 27, 28}, 3, "2030-02"},
		{"past month not signed on its last day", time.Date(2030, time.March, 1, 0, 0, 0, 0, time.UTC), mask(29, 30), []int{29, 30}, 0, "2030-03"},
		{"bits past the month's end are ignored", time.Date(2030, time.February, 1, 0, 0, 0, 0, time.UTC), mask(28, 29, 30), []int{28}, 1, "2030-02"},
		{"future month", time.Date(2030, time.May, 1, 0, 0, 0, 0, time.UTC), 0, []int{}, 0, "2030-05"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := signInStatus(tc.month, today, tc.mask)
			if !slices.Equal(got.SignedDays, tc.wantDays) || got.ConsecutiveDays != tc.wantStreak || got.Month != tc.wantMonthID {
				t.Fatalf("got %+v, want days %v streak %d month %s", got, tc.wantDays, tc.wantStreak, tc.wantMonthID)
			}
		})
	}
}
