package redis_test

import (
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
	"github.com/dealspot/dealspot/internal/app/contracttest"
	"github.com/dealspot/dealspot/internal/app/social/follows"
	"github.com/dealspot/dealspot/internal/app/social/follows/followstest"
	"github.com/dealspot/dealspot/internal/app/social/likes"
	"github.com/dealspot/dealspot/internal/app/social/likes/likestest"
)

// The follow mirror, the feed inboxes, the fan-out queue and the like cache meet the social contracts on
// every Redis.
func TestSocialContracts(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		t.Run("follow mirror", func(t *testing.T) {
			followstest.FollowMirrorContract(t, func(*testing.T) follows.FollowMirror { return redis.NewFollowSets(conn.Client) })
		})
		t.Run("inboxes", func(t *testing.T) {
			followstest.InboxesContract(t, func(t *testing.T, capacity int) follows.Inboxes {
				in, err := redis.NewInboxes(conn.Client, capacity)
				if err != nil {
					t.Fatal(err)
				}
				return in
			})
		})
		t.Run("fan-out queue", func(t *testing.T) {
			followstest.FanoutQueueContract(t, func(*testing.T) func() follows.FanoutQueue {
				cfg := redis.FanoutConfig{
					Stream: fmt.Sprint("feed:fanout:contract:", contracttest.NewID()),
					Block:  50 * time.Millisecond, ClaimIdle: 300 * time.Millisecond, MaxDeliveries: 3,
				}
				return func() follows.FanoutQueue {
					return redis.NewFanoutStream(conn.Client, cfg, slog.New(slog.DiscardHandler))
				}
			})
		})
		t.Run("like cache", func(t *testing.T) {
			likestest.LikesContract(t, func(*testing.T) likes.Likes { return redis.NewLikes(conn.Client) })
		})
	})
}
