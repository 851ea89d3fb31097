package redis_test

import (
	"context"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
)

func TestSignInBitmapPerMonth(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		s := redis.NewSignIns(conn.Client)
		day := func(d int) time.Time { return time.Date(2030, time.January, d, 12, 0, 0, 0, time.UTC) }
		var want uint32
		for _, d := range []int{1, 2, 3, 5, 8, 9, 16, 17, 24, 31} {
			want |= 1 << (d - 1)
			got, err := s.Sign(ctx, 9, day(d))
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("after day %d: mask %032b, want %032b", d, got, want)
			}
		}
		// Signing again changes nothing.
		if got, _ := s.Sign(ctx, 9, day(5)); got != want {
			t.Fatalf("second sign-in changed the mask to %032b", got)
		}
		if got, err := s.Month(ctx, 9, day(20)); err != nil || got != want {
			t.Fatalf("Month = %032b, %v; want %032b", got, err, want)
		}
		// Day 1 is Redis bit 0, the high bit of the first byte, as BITFIELD u31 0 reads it.
		if bit := conn.Client.GetBit(ctx, "sign:9:203001", 0).Val(); bit != 1 {
			t.Fatalf("bit 0 = %d, want day 1 set", bit)
		}
		if got, _ := s.Month(ctx, 9, time.Date(2030, time.February, 1, 0, 0, 0, 0, time.UTC)); got != 0 {
			t.Fatalf("another month = %032b, want empty", got)
		}
		if got, _ := s.Month(ctx, 10, day(1)); got != 0 {
			t.Fatalf("another user = %032b, want empty", got)
		}
	})
}
