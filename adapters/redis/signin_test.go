package redis_test

import (
	"context"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
)

// What the cache's contract (socialtest.SignInCacheContract) leaves to the adapter: the
// bitmap's layout and the TTLs of cached and handed-over months.
func TestSignInCacheMonthsAreBitmapsThatExpire(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		s, err := redis.NewSignIns(conn.Client, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Merge(ctx, 9, time.Date(2030, time.January, 1, 12, 0, 0, 0, time.UTC), 1|1<<3); err != nil {
			t.Fatal(err)
		}
		// Day 1 is Redis bit 0, the high bit of the first byte, as BITFIELD u31 0 reads it.
		if b := conn.Client.GetBit(ctx, "sign:9:203001", 0).Val(); b != 1 {
			t.Fatalf("bit 0 = %d, want day 1 set", b)
		}
		// A month without sign-ins expires too.
		if err := s.Merge(ctx, 9, time.Date(2030, time.February, 1, 0, 0, 0, 0, time.UTC), 0); err != nil {
			t.Fatal(err)
		}
		for _, key := range []string{"sign:9:203002", "sign:9:203001"} {
			if ttl := conn.Client.TTL(ctx, key).Val(); ttl <= 0 || ttl > time.Hour {
				t.Fatalf("%s: TTL %v, want up to an hour", key, ttl)
			}
		}
		// A month an earlier version wrote (no TTL) gets the cache's once handed over.
		conn.Client.SetBit(ctx, "sign:11:203001", 0, 1)
		if err := s.Legacy(ctx, func(int64, time.Time, uint32) error { return nil }); err != nil {
			t.Fatal(err)
		}
		if ttl := conn.Client.TTL(ctx, "sign:11:203001").Val(); ttl <= 0 {
			t.Fatalf("a month handed over has TTL %v, want the cache's", ttl)
		}
	})
}

func TestSignInCacheNeedsATTL(t *testing.T) {
	t.Parallel()
	if _, err := redis.NewSignIns(nil, 0); err == nil {
		t.Fatal("a zero TTL was accepted")
	}
}
