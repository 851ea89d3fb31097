package authtest

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/app/contracttest"
)

// RateLimiterContract is what every auth.RateLimiter must do, as its doc comment says:
// sliding windows walked through on a settable clock, keys apart, exact counts under many
// simultaneous calls, invalid limits refused. newLimiter returns a limiter reading time
// from now; limiters of one test may share their server.
func RateLimiterContract(t *testing.T, newLimiter func(t *testing.T, now func() time.Time) auth.RateLimiter) {
	t.Helper()
	type allowStep struct {
		after     time.Duration
		wantOK    bool
		wantRetry time.Duration
	}
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
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			clock := contracttest.NewClock()
			limiter := newLimiter(t, clock.Now)
			key := newKey()
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
	t.Run("keys are independent", func(t *testing.T) {
		t.Parallel()
		ctx, limiter := context.Background(), newLimiter(t, time.Now)
		a, b := newKey(), newKey()
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
	t.Run("50 simultaneous events are allowed up to the limit", func(t *testing.T) {
		t.Parallel()
		limiter, key := newLimiter(t, time.Now), newKey()
		allowed := count(50, func(int) bool {
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
	t.Run("invalid limits are refused", func(t *testing.T) {
		t.Parallel()
		limiter := newLimiter(t, time.Now)
		for _, tc := range []struct {
			limit  int
			window time.Duration
		}{{0, time.Second}, {1, 0}, {-1, -time.Second}} {
			if _, _, err := limiter.Allow(context.Background(), newKey(), tc.limit, tc.window); err == nil {
				t.Errorf("Allow(limit %d, window %v) succeeded", tc.limit, tc.window)
			}
		}
	})
}

// newKey returns a limiter key no other case of this run uses.
func newKey() string { return "test:" + strconv.FormatInt(newID(), 10) }
