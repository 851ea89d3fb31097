package redis_test

import (
	"context"
	"testing"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
)

// What the marker does is regen's Marker contract (generation_contract_test.go); here is
// what only Redis shows: the marker's keys never expire.
func TestGenerationMarkerDoesNotExpire(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		if v, err := redis.NewGenerationMarker(conn.Client).Claim(ctx); err != nil || v == "" {
			t.Fatalf("Claim = %q, %v; want a generation", v, err)
		}
		for _, k := range redis.GenerationKeys(conn.Client) {
			if ttl, _ := conn.Client.TTL(ctx, k).Result(); ttl >= 0 {
				t.Errorf("the marker key %s expires (TTL %v): eviction of volatile keys could take it", k, ttl)
			}
		}
	})
}

// Losing any one of the marker's keys — on a cluster, the keys of one master that came
// back empty — is a new generation, and every master holds some of them.
func TestGenerationMarkerNoticesAnyKeyLost(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		m := redis.NewGenerationMarker(conn.Client)
		keys := redis.GenerationKeys(conn.Client)
		for _, k := range keys {
			before, err := m.Claim(ctx)
			if err != nil {
				t.Fatal(err)
			}
			deleteKeys(t, conn.Client, k)
			if v, err := m.Read(ctx); err != nil || v != "" {
				t.Fatalf("Read with %s lost = %q, %v; want no generation", k, v, err)
			}
			after, err := m.Claim(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if after == before {
				t.Fatalf("Claim with %s lost kept the generation %q", k, before)
			}
			if v, err := m.Read(ctx); err != nil || v != after {
				t.Fatalf("Read after the claim = %q, %v; want %q", v, err, after)
			}
		}
		cc, ok := conn.Client.(*goredis.ClusterClient)
		if !ok {
			if len(keys) != 1 || keys[0] != redis.GenerationKey {
				t.Fatalf("keys on a single server = %q, want only %s", keys, redis.GenerationKey)
			}
			return
		}
		if len(keys) != 1+redis.GenerationSlotMarkers {
			t.Fatalf("%d keys on a cluster, want %d", len(keys), 1+redis.GenerationSlotMarkers)
		}
		seen := map[uint16]bool{}
		for _, k := range keys {
			want, err := cc.ClusterKeySlot(ctx, k).Result()
			if err != nil {
				t.Fatal(err)
			}
			if got := redis.KeySlot(k); int64(got) != want {
				t.Fatalf("KeySlot(%s) = %d, CLUSTER KEYSLOT says %d", k, got, want)
			}
			seen[uint16(want)] = true
		}
		// Every master serves the slot of at least one key.
		if err := cc.ForEachMaster(ctx, func(ctx context.Context, node *goredis.Client) error {
			held := 0
			for _, k := range keys {
				n, err := node.Exists(ctx, k).Result()
				if err == nil && n == 1 {
					held++
				}
			}
			if held == 0 {
				t.Errorf("master %s holds none of the marker keys", node.Options().Addr)
			}
			t.Logf("master %s holds %d marker keys", node.Options().Addr, held)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if len(seen) != len(keys) {
			t.Errorf("%d keys in %d slots", len(keys), len(seen))
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
