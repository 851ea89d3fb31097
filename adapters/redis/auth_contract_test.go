package redis_test

import (
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/app/auth/authtest"
)

// The session cache, checks one by one and coalesced, the code store and the rate limiter
// meet the auth contracts on every Redis.
func TestAuthContracts(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		t.Run("session cache", func(t *testing.T) {
			authtest.SessionCacheContract(t, func(*testing.T) auth.SessionCache { return redis.NewSessionCache(conn.Client) })
		})
		t.Run("session cache coalesced", func(t *testing.T) {
			authtest.SessionCacheContract(t, func(*testing.T) auth.SessionCache {
				return redis.NewSessionCache(conn.Client).WithCoalescedChecks(redis.Coalescing{Window: 200 * time.Microsecond, Max: 8})
			})
		})
		t.Run("code store", func(t *testing.T) {
			authtest.CodeStoreContract(t, func(*testing.T) auth.CodeStore { return redis.NewCodeStore(conn.Client) })
		})
		t.Run("code store limits", func(t *testing.T) {
			authtest.CodeStoreLimitsContract(t, func(_ *testing.T, now func() time.Time) auth.CodeStore {
				return redis.NewCodeStore(conn.Client).WithClock(now)
			})
		})
		t.Run("rate limiter", func(t *testing.T) {
			authtest.RateLimiterContract(t, func(_ *testing.T, now func() time.Time) auth.RateLimiter {
				return redis.NewRateLimiter(conn.Client).WithClock(now)
			})
		})
	})
}
