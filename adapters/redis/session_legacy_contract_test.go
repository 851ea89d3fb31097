package redis_test

import (
	"context"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/app/auth/authtest"
)

// The session cache hands over the families the earlier version left as the
// LegacySessions contract says, on every Redis.
func TestLegacySessionsContract(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		authtest.LegacySessionsContract(t, func(*testing.T) authtest.LegacyStore {
			old := redistest.LegacySessions{Client: conn.Client}
			return authtest.LegacyStore{LegacySessions: redis.NewSessionCache(conn.Client),
				Leave: func(t *testing.T, userID int64, familyID string, ttl time.Duration, tokens ...string) {
					ctx := context.Background()
					if err := old.Create(ctx, userID, familyID, tokens[0], ttl); err != nil {
						t.Fatal(err)
					}
					for i := 1; i < len(tokens); i++ {
						if n, err := old.Rotate(ctx, userID, familyID, tokens[i-1], tokens[i], ttl); err != nil || n != 1 {
							t.Fatalf("rotate %s: %d, %v", familyID, n, err)
						}
					}
				}}
		})
	})
}

var _ auth.LegacySessions = (*redis.SessionCache)(nil)
