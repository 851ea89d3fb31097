package signins

import (
	"context"
	"errors"
	"log/slog"
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

// everyDay is the mask of every day of a month of n days.
func everyDay(n int) uint32 { return 1<<n - 1 }

// monthMasks is a store and cache of fixed months, keyed by yyyymm.
type monthMasks map[int]uint32

func (m monthMasks) Month(_ context.Context, _ int64, month time.Time) (uint32, bool, error) {
	return m[month.Year()*100+int(month.Month())], true, nil
}

func (monthMasks) Merge(context.Context, int64, time.Time, uint32) error { return nil }

func (monthMasks) Legacy(context.Context, func(int64, time.Time, uint32) error) error { return nil }

func TestSignInStatusCountsTheRunAcrossMonths(t *testing.T) {
	t.Parallel()
	today := time.Date(2030, time.April, 12, 9, 0, 0, 0, time.UTC)
	firstOfMay := time.Date(2030, time.May, 1, 9, 0, 0, 0, time.UTC)
	month := func(m time.Month) time.Time { return time.Date(2030, m, 1, 0, 0, 0, 0, time.UTC) }
	cases := []struct {
		name        string
		today       time.Time
		month       time.Time
		masks       monthMasks
		wantDays    []int
		wantStreak  int
		wantToday   bool
		wantMonthID string
	}{
		{"nothing signed", today, today, monthMasks{}, []int{}, 0, false, "2030-04"},
		{"a run up to today after a gap", today, today, monthMasks{203004: mask(1, 2, 3, 5, 9, 10, 11, 12)}, []int{1, 2, 3, 5, 9, 10, 11, 12}, 4, true, "2030-04"},
		{"today not signed yet: the run up to yesterday counts", today, today, monthMasks{203004: mask(9, 10, 11)}, []int{9, 10, 11}, 3, false, "2030-04"},
		{"neither today nor yesterday signed", today, today, monthMasks{203004: mask(9, 10)}, []int{9, 10}, 0, false, "2030-04"},
		{"only today", today, today, monthMasks{203004: mask(12)}, []int{12}, 1, true, "2030-04"},
		{"every day to today, and the end of last month", today, today,
			monthMasks{203004: mask(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12), 203003: mask(30, 31)}, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 14, true, "2030-04"},
		{"a run through two whole months before", today, today,
			monthMasks{203004: mask(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12), 203003: everyDay(31), 203002: everyDay(28), 203001: mask(31)}, nil, 12 + 31 + 28 + 1, true, "2030-04"},
		{"the 1st, not signed yet: the run ends on last month's last day", firstOfMay, firstOfMay,
			monthMasks{203004: mask(29, 30)}, []int{}, 2, false, "2030-05"},
		{"the 1st, signed", firstOfMay, firstOfMay, monthMasks{203005: mask(1), 203004: mask(29, 30)}, []int{1}, 3, true, "2030-05"},
		{"past month counts back from its last day", today, month(time.February), monthMasks{203002: mask(1, 26, 27, 28), 203004: mask(12)}, []int{1, 26, 27, 28}, 3, true, "2030-02"},
		{"past month signed from its 1st goes on into the month before", today, month(time.February),
			monthMasks{203002: everyDay(28), 203001: mask(30, 31)}, nil, 30, false, "2030-02"},
		{"past month not signed on its last day", today, month(time.March), monthMasks{203003: mask(29, 30)}, []int{29, 30}, 0, false, "2030-03"},
		{"bits past the month's end are ignored", today, month(time.February), monthMasks{203002: mask(28, 29, 30)}, []int{28}, 1, false, "2030-02"},
		{"future month", today, month(time.May), monthMasks{203004: mask(11, 12)}, []int{}, 0, true, "2030-05"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			q := &SignInQueries{months: &months{cache: tc.masks, log: slog.New(slog.DiscardHandler)}, cal: calendar{now: func() time.Time { return tc.today }, loc: time.UTC}}
			got, err := q.SignInStatus(context.Background(), 7, tc.month.Format(monthLayout))
			if err != nil {
				t.Fatal(err)
			}
			if (tc.wantDays != nil && !slices.Equal(got.SignedDays, tc.wantDays)) || got.ConsecutiveDays != tc.wantStreak ||
				got.SignedToday != tc.wantToday || got.Month != tc.wantMonthID {
				t.Fatalf("got %+v, want days %v streak %d signed today %v month %s", got, tc.wantDays, tc.wantStreak, tc.wantToday, tc.wantMonthID)
			}
		})
	}
}

// failingCache is a cache that cannot answer.
type failingCache struct{ monthMasks }

func (failingCache) Month(context.Context, int64, time.Time) (uint32, bool, error) {
	return 0, false, errors.New("redis is away")
}

// monthStore is a store of fixed months, keyed by yyyymm.
type monthStore struct{ monthMasks }

func (m monthStore) Month(_ context.Context, _ int64, month time.Time) (uint32, error) {
	return m.monthMasks[month.Year()*100+int(month.Month())], nil
}

func (monthStore) Sign(context.Context, int64, time.Time) (uint32, error) { return 0, nil }

// A cache that cannot answer does not fail a read: the store has every sign-in.
func TestSignInStatusReadsTheStoreWhenTheCacheFails(t *testing.T) {
	t.Parallel()
	today := time.Date(2030, time.April, 2, 9, 0, 0, 0, time.UTC)
	store := monthStore{monthMasks{203004: mask(1, 2), 203003: mask(31)}}
	q := &SignInQueries{months: &months{store: store, cache: failingCache{}, log: slog.New(slog.DiscardHandler)},
		cal: calendar{now: func() time.Time { return today }, loc: time.UTC}}
	got, err := q.SignInStatus(context.Background(), 7, "")
	if err != nil || got.ConsecutiveDays != 3 || !got.SignedToday {
		t.Fatalf("status = %+v, %v; want a run of 3 read from the store", got, err)
	}
}
