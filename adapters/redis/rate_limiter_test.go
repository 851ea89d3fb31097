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

// The windows, keys, counts under concurrency and refused limits of the rate limiter are
// authtest.RateLimiterContract's (see auth_contract_test.go); here it runs on the real
// clock, which the contract's settable one stands in for.

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
