package redis_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
)

type allowStep struct {
	after     time.Duration
	wantOK    bool
	wantRetry time.Duration
}

func TestRateLimiterWindows(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		limit  int
		window time.Duration
		steps  []allowStep
	}{
		{"up to the limit", 3, time.Second, []allowStep{
			{0, true, 0}, {0, true, 0}, {0, true, 0},
			{0, false, time.Second},
			{500 * time.Millisecond, false, 500 * time.Millisecond},
			{500 * time.Millisecond, true, 0},
		}},
		{"window slides", 3, time.Second, []allowStep{
			{0, true, 0}, {400 * time.Millisecond, true, 0}, {400 * time.Millisecond, true, 0},
			{200 * time.Millisecond, true, 0}, // the first event has left the window
			{100 * time.Millisecond, false, 300 * time.Millisecond},
			{300 * time.Millisecond, true, 0},
		}},
		{"refused events are not counted", 1, time.Minute, []allowStep{
			{0, true, 0},
			{30 * time.Second, false, 30 * time.Second},
			{29 * time.Second, false, time.Second},
			{time.Second, true, 0},
		}},
	}
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				clock := redistest.NewClock()
				limiter := redis.NewRateLimiter(conn.Client).WithClock(clock.Now)
				key := fmt.Sprint("test:", rand.Uint64())
				for i, s := range tc.steps {
					clock.Advance(s.after)
					ok, retry, err := limiter.Allow(context.Background(), key, tc.limit, tc.window)
					if err != nil {
						t.Fatalf("step %d: %v", i, err)
					}
					if ok != s.wantOK || retry != s.wantRetry {
						t.Fatalf("step %d: Allow = (%v, %v), want (%v, %v)", i, ok, retry, s.wantOK, s.wantRetry)
					}
				}
			})
		}
	})
}

func TestRateLimiterKeysAreIndependent(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		limiter := redis.NewRateLimiter(conn.Client)
		a, b := fmt.Sprint("test:a:", rand.Uint64()), fmt.Sprint("test:b:", rand.Uint64())
		if ok, _, _ := limiter.Allow(ctx, a, 1, time.Minute); !ok {
			t.Fatal("first event of a refused")
		}
		if ok, _, _ := limiter.Allow(ctx, a, 1, time.Minute); ok {
			t.Fatal("second event of a allowed")
		}
		if ok, _, _ := limiter.Allow(ctx, b, 1, time.Minute); !ok {
			t.Fatal("first event of b refused")
		}
	})
}

func TestRateLimiterUnderConcurrency(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		limiter := redis.NewRateLimiter(conn.Client)
		key := fmt.Sprint("test:", rand.Uint64())
		allowed := count(t, 50, func(int) bool {
			ok, _, err := limiter.Allow(context.Background(), key, 10, time.Minute)
			if err != nil {
				t.Error(err)
			}
			return ok
		})
		if allowed != 10 {
			t.Fatalf("%d of 50 allowed, want 10", allowed)
		}
	})
}

func TestRateLimiterOnTheRealClock(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		limiter := redis.NewRateLimiter(conn.Client)
		key := fmt.Sprint("test:", rand.Uint64())
		const window = 300 * time.Millisecond
		for range 2 {
			if ok, _, err := limiter.Allow(ctx, key, 2, window); !ok || err != nil {
				t.Fatalf("Allow within the limit = (%v, %v)", ok, err)
			}
		}
		ok, retry, err := limiter.Allow(ctx, key, 2, window)
		if ok || err != nil || retry <= 0 || retry > window {
			t.Fatalf("Allow beyond the limit = (%v, %v, %v), want refused with 0 < retry ≤ %v", ok, retry, err, window)
		}
		time.Sleep(retry + 10*time.Millisecond)
		if ok, _, err := limiter.Allow(ctx, key, 2, window); !ok || err != nil {
			t.Fatalf("Allow after waiting = (%v, %v)", ok, err)
		}
	})
}

func TestRateLimiterRefusesInvalidLimits(t *testing.T) {
	t.Parallel()
	conn, err := redis.Open(context.Background(), redis.Embedded)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	limiter := redis.NewRateLimiter(conn.Client)
	for _, tc := range []struct {
		limit  int
		window time.Duration
	}{{0, time.Second}, {1, 0}, {-1, -time.Second}} {
		if _, _, err := limiter.Allow(context.Background(), "k", tc.limit, tc.window); err == nil {
			t.Errorf("Allow(limit %d, window %v) succeeded", tc.limit, tc.window)
		}
	}
}
