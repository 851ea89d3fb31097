package redis_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
	sociallikes "github.com/dealspot/dealspot/internal/app/social/likes"
)

func TestLegacyLikeSetsAreHandedOverOnce(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		likes := redis.NewLikes(conn.Client)
		// Like sets an earlier version wrote (no version key), beside one this version
		// caches and the earlier version's change numbers.
		c := conn.Client
		c.ZAdd(ctx, "blog:liked:{4}", goredisZ(1000, "7"), goredisZ(2000, "3"))
		c.Set(ctx, "blog:liked:{4}:seq", "99", 0)
		c.ZAdd(ctx, "blog:liked:{12}", goredisZ(5000, "8"))
		if err := likes.Load(ctx, 6, sociallikes.BlogLikes{Version: 1, Likes: []sociallikes.Like{{UserID: 1, At: time.UnixMilli(1)}}}); err != nil {
			t.Fatal(err)
		}
		got := map[int64][]sociallikes.Like{}
		collect := func(blogID int64, ls []sociallikes.Like) error { got[blogID] = ls; return nil }
		if err := likes.Legacy(ctx, collect); err != nil {
			t.Fatal(err)
		}
		want := map[int64][]sociallikes.Like{
			4:  {{UserID: 7, At: time.UnixMilli(1000)}, {UserID: 3, At: time.UnixMilli(2000)}},
			12: {{UserID: 8, At: time.UnixMilli(5000)}},
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("legacy like sets = %v, want %v", got, want)
		}
		clear(got)
		c.ZAdd(ctx, "blog:liked:{13}", goredisZ(5000, "8"))
		if err := likes.Legacy(ctx, collect); err != nil || len(got) != 0 {
			t.Fatalf("a second call found %v, %v; want nothing", got, err)
		}
	})
}

func goredisZ(score float64, member string) goredis.Z { return goredis.Z{Score: score, Member: member} }
