package redis_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
	"github.com/dealspot/dealspot/internal/app/social/signins"
	"github.com/dealspot/dealspot/internal/app/social/socialtest"
)

// The sign-in cache meets its contracts on every Redis.
func TestSignInCacheContract(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		newCache := func(t *testing.T) *redis.SignIns {
			s, err := redis.NewSignIns(conn.Client, time.Hour)
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
		t.Run("months", func(t *testing.T) {
			socialtest.SignInCacheContract(t, func(t *testing.T) signins.SignIns { return newCache(t) })
		})
		t.Run("legacy", func(t *testing.T) {
			socialtest.SignInLegacyContract(t, func(t *testing.T) socialtest.LegacySignIns {
				return socialtest.LegacySignIns{SignIns: newCache(t), Leave: leaveSignIns(conn)}
			})
		})
	})
}

// leaveSignIns writes a month as the version before the store did: a bitmap with bit
// d-1 for day d and no TTL.
func leaveSignIns(conn *redis.Conn) func(t *testing.T, userID int64, month time.Time, mask uint32) {
	return func(t *testing.T, userID int64, month time.Time, mask uint32) {
		t.Helper()
		key := "sign:" + strconv.FormatInt(userID, 10) + ":" + month.Format("200601")
		for d := range 31 {
			if mask&(1<<d) != 0 {
				if err := conn.Client.SetBit(t.Context(), key, int64(d), 1).Err(); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}
