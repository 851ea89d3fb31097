package socialtest

import (
	"context"
	"math"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/contracttest"
	"github.com/dealspot/dealspot/internal/app/social/visitors"
)

// VisitorsContract is what every visitors.Visitors must do, as its doc comments say:
// distinct visitors counted within 2% (an estimate), days counted as a union, one visitor
// once however often and on however many days, shops and the site apart. newVisitors
// returns the counts (counts of one test may share their server).
func VisitorsContract(t *testing.T, newVisitors func(t *testing.T) visitors.Visitors) {
	t.Helper()
	contracttest.RunCases(t, newVisitors,
		contracttest.Case[visitors.Visitors]{Name: "distinct visitors are counted within 2%", Run: visitorsWithin2Percent},
		contracttest.Case[visitors.Visitors]{Name: "one visitor is counted once", Run: visitorsOnce},
	)
}

func visitorsWithin2Percent(t *testing.T, v visitors.Visitors) {
	ctx := context.Background()
	day := time.Date(2030, 3, 1, 0, 0, 0, 0, time.UTC)
	const n = 100_000
	ids := make([]string, n)
	for i := range ids {
		ids[i] = "u:" + strconv.Itoa(i)
	}
	if err := v.Record(ctx, day, 0, ids); err != nil {
		t.Fatal(err)
	}
	got, err := v.Count(ctx, []time.Time{day}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if e := math.Abs(float64(got)-n) / n; e > 0.02 {
		t.Fatalf("%d distinct visitors counted as %d (error %.2f%%), want within 2%%", n, got, e*100)
	}
	t.Logf("%d distinct visitors counted as %d", n, got)
	// The same visitors again, on the next day: the union over both days is unchanged.
	if err := v.Record(ctx, day.AddDate(0, 0, 1), 0, ids[:n/2]); err != nil {
		t.Fatal(err)
	}
	two, err := v.Count(ctx, []time.Time{day, day.AddDate(0, 0, 1)}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if e := math.Abs(float64(two)-n) / n; e > 0.02 {
		t.Fatalf("over two days %d, want about %d (a union, not a sum)", two, n)
	}
}

func visitorsOnce(t *testing.T, v visitors.Visitors) {
	ctx := context.Background()
	shop, unvisited := contracttest.NewID(), contracttest.NewID()
	days := []time.Time{
		time.Date(2030, 4, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2030, 4, 2, 0, 0, 0, 0, time.UTC),
		time.Date(2030, 4, 3, 0, 0, 0, 0, time.UTC),
	}
	for range 500 {
		if err := v.Record(ctx, days[0], 0, []string{"u:1"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := v.Record(ctx, days[1], 0, slices.Repeat([]string{"u:1"}, 100)); err != nil {
		t.Fatal(err)
	}
	if err := v.Record(ctx, days[2], 0, []string{"u:2"}); err != nil {
		t.Fatal(err)
	}
	if err := v.Record(ctx, days[0], shop, []string{"u:1", "u:3"}); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		days []time.Time
		shop int64
		want int64
	}{
		{"one visitor, many visits", days[:1], 0, 1},
		{"the same visitor on two days", days[:2], 0, 1},
		{"another visitor on the third day", days, 0, 2},
		{"a shop counts its own visitors", days, shop, 2},
		{"a shop nobody visited", days, unvisited, 0},
		{"a day nobody visited", []time.Time{days[2].AddDate(0, 0, 1)}, 0, 0},
		{"no days", nil, 0, 0},
	}
	for _, tc := range cases {
		got, err := v.Count(ctx, tc.days, tc.shop)
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}
