package redis_test

import (
	"context"
	"testing"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
	"github.com/dealspot/dealspot/internal/app/regen"
	"github.com/dealspot/dealspot/internal/app/regen/regentest"
)

// The generation marker meets regen's Marker contract on every Redis; a wipe deletes
// the marker's key, as a restart without persistence or a FLUSHALL would.
func TestGenerationMarkerContract(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		regentest.MarkerContract(t, func(*testing.T) regentest.MarkerStore {
			return regentest.MarkerStore{
				New: func() regen.Marker { return redis.NewGenerationMarker(conn.Client) },
				Wipe: func(t *testing.T) {
					if err := conn.Client.Del(context.Background(), redis.GenerationKey).Err(); err != nil {
						t.Fatal(err)
					}
				},
			}
		})
	})
}
