// Package redistest runs tests against every kind of Redis server Dealspot supports: the
// embedded one, a real one and a Redis Cluster.
package redistest

import (
	"context"
	"sync"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// Each runs fn as parallel subtests: "embedded" on a fresh in-process server, "redis"
// on an isolated database of the real server named by TEST_REDIS_URL (skipped when that
// is unset, failed under CI=true), and "cluster" on a 3-master Redis Cluster of its own
// for the time being, emptied for it (skipped without redis-server and redis-cli, failed
// under CI=true).
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
	t.Run("cluster", func(t *testing.T) {
		t.Parallel()
		fn(t, open(t, testsupport.RedisClusterURL(t)))
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

// Keys returns the keys matching pattern (KEYS on every master of a cluster, where one
// KEYS sees a single node's).
func Keys(t *testing.T, conn *redis.Conn, pattern string) []string {
	t.Helper()
	ctx := context.Background()
	cc, ok := conn.Client.(*goredis.ClusterClient)
	if !ok {
		keys, err := conn.Client.Keys(ctx, pattern).Result()
		if err != nil {
			t.Fatalf("KEYS %s: %v", pattern, err)
		}
		return keys
	}
	var (
		mu   sync.Mutex
		keys []string
	)
	err := cc.ForEachMaster(ctx, func(ctx context.Context, m *goredis.Client) error {
		ks, err := m.Keys(ctx, pattern).Result()
		mu.Lock()
		keys = append(keys, ks...)
		mu.Unlock()
		return err
	})
	if err != nil {
		t.Fatalf("KEYS %s: %v", pattern, err)
	}
	return keys
}

// Flush empties the connection's database (on a cluster, every master), as a Redis
// that lost its data.
func Flush(t *testing.T, conn *redis.Conn) {
	t.Helper()
	ctx := context.Background()
	var err error
	if cc, ok := conn.Client.(*goredis.ClusterClient); ok {
		err = cc.ForEachMaster(ctx, func(ctx context.Context, m *goredis.Client) error {
			return m.FlushDB(ctx).Err()
		})
	} else {
		err = conn.Client.FlushDB(ctx).Err()
	}
	if err != nil {
		t.Fatalf("flush redis: %v", err)
	}
}
