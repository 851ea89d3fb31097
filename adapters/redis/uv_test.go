package redis_test

import (
	"context"
	"math"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
)

func TestVisitorsCountDistinctWithin2Percent(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		v, err := redis.NewVisitors(conn.Client, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
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
		if keys := redistest.Keys(t, conn, "uv:*merge*"); len(keys) != 0 {
			t.Fatalf("scratch keys left behind: %v", keys)
		}
	})
}

func TestVisitorsCountOneVisitorOnce(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		v, _ := redis.NewVisitors(conn.Client, time.Hour)
		days := []time.Time{
			time.Date(2030, 3, 1, 0, 0, 0, 0, time.UTC),
			time.Date(2030, 3, 2, 0, 0, 0, 0, time.UTC),
			time.Date(2030, 3, 3, 0, 0, 0, 0, time.UTC),
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
		if err := v.Record(ctx, days[0], 42, []string{"u:1", "u:3"}); err != nil {
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
			{"a shop counts its own visitors", days, 42, 2},
			{"a shop nobody visited", days, 43, 0},
			{"a day nobody visited", []time.Time{days[2].AddDate(0, 0, 1)}, 0, 0},
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
		if ttl := conn.Client.TTL(ctx, "uv:{site}:20300301").Val(); ttl <= 0 || ttl > time.Hour {
			t.Errorf("TTL of a day's count = %s, want the retention", ttl)
		}
	})
}
