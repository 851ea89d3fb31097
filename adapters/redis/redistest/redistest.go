// Package redistest runs tests against every kind of Redis server Dealspot supports: the
// embedded one and a real one.
package redistest

import (
	"context"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// Each runs fn as parallel subtests: "embedded" on a fresh in-process server, and
// "redis" on an isolated database of the real server named by TEST_REDIS_URL (skipped
// when that is unset, failed under CI=true).
func Each(t *testing.T, fn func(t *testing.T, conn *redis.Conn)) {
	t.Helper()
	t.Run("embedded", func(t *testing.T) {
		t.Parallel()
		fn(t, open(t, redis.Embedded))
	})
	t.Run("redis", func(t *testing.T) {
		t.Parallel()
		fn(t, open(t, testsupport.RedisURL(t)))
	})
}

func open(t *testing.T, url string) *redis.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := redis.Open(ctx, url)
	if err != nil {
		t.Fatalf("open redis: %v", err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

// SkipWithoutExpiry skips the test when the server does not expire keys as time passes
// (the embedded server only does so with its TTL clock on).
func SkipWithoutExpiry(t *testing.T, rc goredis.UniversalClient) {
	t.Helper()
	ctx := context.Background()
	key := "expiry-probe:" + testsupport.RandomSuffix(8)
	if err := rc.Set(ctx, key, "x", time.Millisecond).Err(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond)
	if n, err := rc.Exists(ctx, key).Result(); err != nil {
		t.Fatal(err)
	} else if n != 0 {
		t.Skip("this server does not expire keys as time passes")
	}
}
