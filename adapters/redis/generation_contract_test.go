package redis_test

import (
	"context"
	"testing"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
	"github.com/dealspot/dealspot/internal/app/regen"
	"github.com/dealspot/dealspot/internal/app/regen/regentest"
)

// The generation marker meets regen's Marker contract on every Redis; a wipe deletes
// the marker's keys, as a restart without persistence or a FLUSHALL would.
func TestGenerationMarkerContract(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		regentest.MarkerContract(t, func(*testing.T) regentest.MarkerStore {
			return regentest.MarkerStore{
				New:  func() regen.Marker { return redis.NewGenerationMarker(conn.Client) },
				Wipe: func(t *testing.T) { deleteKeys(t, conn.Client, redis.GenerationKeys(conn.Client)...) },
			}
		})
	})
}

// deleteKeys deletes keys one DEL each (on a cluster they live in different slots).
func deleteKeys(t *testing.T, rc goredis.UniversalClient, keys ...string) {
	t.Helper()
	ctx := context.Background()
	if _, err := rc.Pipelined(ctx, func(p goredis.Pipeliner) error {
		for _, k := range keys {
			p.Del(ctx, k)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}
