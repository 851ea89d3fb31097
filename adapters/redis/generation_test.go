package redis_test

import (
	"context"
	"testing"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
)

// What the marker does is regen's Marker contract (generation_contract_test.go); here is
// what only Redis shows: the marker's key never expires.
func TestGenerationMarkerDoesNotExpire(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		if v, err := redis.NewGenerationMarker(conn.Client).Claim(ctx); err != nil || v == "" {
			t.Fatalf("Claim = %q, %v; want a generation", v, err)
		}
		if ttl, _ := conn.Client.TTL(ctx, redis.GenerationKey).Result(); ttl >= 0 {
			t.Errorf("the marker expires (TTL %v): eviction of volatile keys could take it", ttl)
		}
	})
}

func TestPersistenceOfTheTestServer(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		p, err := conn.Persistence(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if conn.IsEmbedded() != p.Embedded {
			t.Fatalf("Persistence = %+v for an embedded server: %v", p, conn.IsEmbedded())
		}
		if !p.Embedded && p.AOF && p.AppendFsync == "" {
			t.Errorf("AOF on but no fsync policy read: %+v", p)
		}
		t.Logf("%+v", p)
	})
}
