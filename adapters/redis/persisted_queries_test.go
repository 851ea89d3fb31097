package redis_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
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
		a := redis.NewPersistedQueries(conn.Client, time.Hour, nil)
		b := redis.NewPersistedQueries(conn.NewClient(), time.Hour, nil)
		if _, ok := b.Get(ctx, hash); ok {
			t.Fatal("found before registration")
		}
		a.Add(ctx, hash, query)
		if got, ok := b.Get(ctx, hash); !ok || got != query {
			t.Fatalf("Get on another client = %q, %v; want the query", got, ok)
		}
		if ttl := conn.Client.TTL(ctx, "apq:"+hash).Val(); ttl <= 0 || ttl > time.Hour {
			t.Errorf("TTL %v, want up to an hour", ttl)
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
	p := redis.NewPersistedQueries(down, time.Hour, nil)
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
