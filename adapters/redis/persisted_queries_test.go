package redis_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
)

func TestPersistedQueriesAreSharedThroughRedis(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		const query = `{ __typename }`
		sum := sha256.Sum256([]byte(query))
		hash := hex.EncodeToString(sum[:])
		a := redis.NewPersistedQueries(conn.Client, redis.PersistedQuerySettings{TTL: time.Hour, MaxBytes: 1 << 20}, nil)
		b := redis.NewPersistedQueries(conn.NewClient(), redis.PersistedQuerySettings{TTL: time.Hour, MaxBytes: 1 << 20}, nil)
		if _, ok := b.Get(ctx, hash); ok {
			t.Fatal("found before registration")
		}
		a.Add(ctx, hash, query)
		if got, ok := b.Get(ctx, hash); !ok || got != query {
			t.Fatalf("Get on another client = %q, %v; want the query", got, ok)
		}
		for _, key := range conn.Client.Keys(ctx, "apq:*").Val() {
			if ttl := conn.Client.TTL(ctx, key).Val(); ttl <= 0 || ttl > time.Hour {
				t.Errorf("%s: TTL %v, want up to an hour", key, ttl)
			}
		}
		// Only SHA-256 hashes are keys.
		for _, bad := range []string{"", "x", strings.ToUpper(hash), hash + "0", strings.Repeat("g", 64)} {
			a.Add(ctx, bad, query)
			if _, ok := a.Get(ctx, bad); ok {
				t.Errorf("hash %q accepted", bad)
			}
		}
	})
}

// A Redis that cannot be reached is a miss, quickly.
func TestPersistedQueriesMissWhenRedisIsDown(t *testing.T) {
	t.Parallel()
	down := goredis.NewClient(&goredis.Options{Addr: "127.0.0.1:1", MaxRetries: -1, DialTimeout: 100 * time.Millisecond})
	defer down.Close()
	p := redis.NewPersistedQueries(down, redis.PersistedQuerySettings{TTL: time.Hour, MaxBytes: 1 << 20}, nil)
	hash := strings.Repeat("a", 64)
	start := time.Now()
	p.Add(context.Background(), hash, "{ __typename }")
	if _, ok := p.Get(context.Background(), hash); ok {
		t.Error("found in a Redis that is down")
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("took %v", took)
	}
}

// Under a flood of distinct registrations the store keeps at most MaxBytes (texts plus
// a fixed cost per entry) in a fixed number of keys: the newest are kept, the oldest go.
func TestPersistedQueriesStayWithinTheirByteBudgetInRedis(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		const budget, n = 64 << 10, 3000
		p := redis.NewPersistedQueries(conn.Client, redis.PersistedQuerySettings{TTL: time.Hour, MaxBytes: budget}, nil)
		doc := func(i int) string { return fmt.Sprintf("#%d %s\n{ __typename }", i, strings.Repeat("x", 100)) }
		for i := range n {
			p.Add(ctx, sha(doc(i)), doc(i))
		}
		keys := allKeys(ctx, t, conn.Client)
		if len(keys) > 3 {
			t.Errorf("%d registrations left %d keys: %v, want at most 3", n, len(keys), keys)
		}
		texts := 0
		var entries int
		for _, key := range keys {
			if conn.Client.Type(ctx, key).Val() == "hash" {
				for _, q := range conn.Client.HGetAll(ctx, key).Val() {
					texts += len(q)
					entries++
				}
			}
		}
		if entries == 0 || entries >= n {
			t.Errorf("%d of %d documents kept", entries, n)
		}
		if used := texts + entries*redis.PersistedQueryEntryCost; used > budget {
			t.Errorf("the store holds %d bytes (%d entries), over its budget of %d", used, entries, budget)
		}
		if q, ok := p.Get(ctx, sha(doc(n-1))); !ok || q != doc(n-1) {
			t.Error("the newest document is gone")
		}
		if _, ok := p.Get(ctx, sha(doc(0))); ok {
			t.Error("the oldest document is still kept")
		}
		big := strings.Repeat("y", budget)
		p.Add(ctx, sha(big), big)
		if _, ok := p.Get(ctx, sha(big)); ok {
			t.Error("a document larger than the whole budget was kept")
		}
	})
}

// An entry registered more than TTL ago goes at the next registration.
func TestPersistedQueriesExpire(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		p := redis.NewPersistedQueries(conn.Client, redis.PersistedQuerySettings{TTL: time.Hour, MaxBytes: 1 << 20, Now: func() time.Time { return now }}, nil)
		const a, b = "#a\n{ __typename }", "#b\n{ __typename }"
		p.Add(ctx, sha(a), a)
		now = now.Add(30 * time.Minute)
		p.Add(ctx, sha(a), a) // registered again: its age starts over
		now = now.Add(45 * time.Minute)
		p.Add(ctx, sha(b), b)
		if _, ok := p.Get(ctx, sha(a)); !ok {
			t.Fatal("registered again 45 minutes ago, with a TTL of an hour, and gone")
		}
		now = now.Add(2 * time.Hour)
		p.Add(ctx, sha(b), b)
		if _, ok := p.Get(ctx, sha(a)); ok {
			t.Error("registered 2h45 ago with a TTL of an hour, and still kept")
		}
		if _, ok := p.Get(ctx, sha(b)); !ok {
			t.Error("the document just registered again is gone")
		}
	})
}

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// allKeys lists every key, on every master of a cluster.
func allKeys(ctx context.Context, t *testing.T, rdb goredis.UniversalClient) []string {
	t.Helper()
	cc, ok := rdb.(*goredis.ClusterClient)
	if !ok {
		return rdb.Keys(ctx, "*").Val()
	}
	var mu sync.Mutex
	var keys []string
	err := cc.ForEachMaster(ctx, func(ctx context.Context, c *goredis.Client) error {
		k, err := c.Keys(ctx, "*").Result()
		mu.Lock()
		keys = append(keys, k...)
		mu.Unlock()
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return keys
}
