package redis_test

import (
	"context"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
)

func TestSignInCacheMergesMonths(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		s, err := redis.NewSignIns(conn.Client, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		day := func(d int) time.Time { return time.Date(2030, time.January, d, 12, 0, 0, 0, time.UTC) }
		bit := func(d int) uint32 { return 1 << (d - 1) }
		if _, cached, err := s.Month(ctx, 9, day(1)); err != nil || cached {
			t.Fatalf("a month never cached: cached %v, %v", cached, err)
		}
		var want uint32
		for _, d := range []int{1, 2, 3, 5, 8, 9, 16, 17, 24, 31} {
			want |= bit(d)
			if err := s.Merge(ctx, 9, day(d), want); err != nil {
				t.Fatal(err)
			}
			if got, cached, err := s.Month(ctx, 9, day(20)); err != nil || !cached || got != want {
				t.Fatalf("after day %d: mask %032b, cached %v, %v; want %032b", d, got, cached, err, want)
			}
		}
		// Masks merge: an older, smaller mask arriving late takes nothing away.
		if err := s.Merge(ctx, 9, day(4), bit(1)|bit(4)); err != nil {
			t.Fatal(err)
		}
		want |= bit(4)
		if got, _, _ := s.Month(ctx, 9, day(1)); got != want {
			t.Fatalf("after a late merge: %032b, want %032b", got, want)
		}
		// Day 1 is Redis bit 0, the high bit of the first byte, as BITFIELD u31 0 reads it.
		if b := conn.Client.GetBit(ctx, "sign:9:203001", 0).Val(); b != 1 {
			t.Fatalf("bit 0 = %d, want day 1 set", b)
		}
		// A month without sign-ins is cached as such, and expires.
		feb := time.Date(2030, time.February, 1, 0, 0, 0, 0, time.UTC)
		if err := s.Merge(ctx, 9, feb, 0); err != nil {
			t.Fatal(err)
		}
		if got, cached, err := s.Month(ctx, 9, feb); err != nil || !cached || got != 0 {
			t.Fatalf("an empty month = %032b, cached %v, %v; want cached, empty", got, cached, err)
		}
		for _, key := range []string{"sign:9:203002", "sign:9:203001"} {
			if ttl := conn.Client.TTL(ctx, key).Val(); ttl <= 0 || ttl > time.Hour {
				t.Fatalf("%s: TTL %v, want up to an hour", key, ttl)
			}
		}
		if _, cached, _ := s.Month(ctx, 10, day(1)); cached {
			t.Fatal("another user's month is cached")
		}
	})
}

func TestSignInCacheNeedsATTL(t *testing.T) {
	t.Parallel()
	if _, err := redis.NewSignIns(nil, 0); err == nil {
		t.Fatal("a zero TTL was accepted")
	}
}

func TestLegacySignInMonthsAreHandedOverOnce(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		s, err := redis.NewSignIns(conn.Client, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		c := conn.Client
		// A month an earlier version wrote (no TTL): days 1 and 3.
		c.SetBit(ctx, "sign:9:203001", 0, 1)
		c.SetBit(ctx, "sign:9:203001", 2, 1)
		// A month this version caches.
		if err := s.Merge(ctx, 10, time.Date(2030, time.February, 1, 0, 0, 0, 0, time.UTC), 1); err != nil {
			t.Fatal(err)
		}
		type month struct {
			user  int64
			month string
			mask  uint32
		}
		var got []month
		collect := func(u int64, m time.Time, mask uint32) error {
			got = append(got, month{u, m.Format("2006-01"), mask})
			return nil
		}
		if err := s.Legacy(ctx, collect); err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0] != (month{9, "2030-01", 0b101}) {
			t.Fatalf("legacy months = %+v, want user 9's 2030-01 with days 1 and 3", got)
		}
		if ttl := c.TTL(ctx, "sign:9:203001").Val(); ttl <= 0 {
			t.Fatalf("a month handed over has TTL %v, want the cache's", ttl)
		}
		got = nil
		c.SetBit(ctx, "sign:11:203001", 0, 1)
		if err := s.Legacy(ctx, collect); err != nil || len(got) != 0 {
			t.Fatalf("a second call found %v, %v; want nothing", got, err)
		}
	})
}
