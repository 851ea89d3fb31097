package redis_test

import (
	"context"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
	"github.com/dealspot/dealspot/internal/app/social/socialtest"
	"github.com/dealspot/dealspot/internal/app/social/visitors"
)

// The visitor counts meet their contract on every Redis.
func TestVisitorsContract(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		socialtest.VisitorsContract(t, func(t *testing.T) visitors.Visitors {
			v, err := redis.NewVisitors(conn.Client, time.Hour)
			if err != nil {
				t.Fatal(err)
			}
			return v
		})
	})
}

// What the contract leaves to the adapter: a count over days leaves no scratch key
// behind, and a day's count is kept for the retention.
func TestVisitorsLeaveNoScratchAndExpire(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		v, _ := redis.NewVisitors(conn.Client, time.Hour)
		day := time.Date(2030, 3, 1, 0, 0, 0, 0, time.UTC)
		for i, ids := range [][]string{{"u:1", "u:2"}, {"u:2", "u:3"}} {
			if err := v.Record(ctx, day.AddDate(0, 0, i), 0, ids); err != nil {
				t.Fatal(err)
			}
		}
		if n, err := v.Count(ctx, []time.Time{day, day.AddDate(0, 0, 1)}, 0); err != nil || n != 3 {
			t.Fatalf("over two days %d, %v; want 3", n, err)
		}
		if keys := redistest.Keys(t, conn, "uv:*merge*"); len(keys) != 0 {
			t.Fatalf("scratch keys left behind: %v", keys)
		}
		if ttl := conn.Client.TTL(ctx, "uv:{site}:20300301").Val(); ttl <= 0 || ttl > time.Hour {
			t.Errorf("TTL of a day's count = %s, want the retention", ttl)
		}
	})
}

func TestVisitorsNeedARetention(t *testing.T) {
	t.Parallel()
	if _, err := redis.NewVisitors(nil, 0); err == nil {
		t.Fatal("a zero retention was accepted")
	}
}
