package redis_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
	sociallikes "github.com/dealspot/dealspot/internal/app/social/likes"
)

func TestLikeCacheTellsNotCachedFromNoLikes(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		likes := redis.NewLikes(conn.Client)
		ids, cached, err := likes.Likers(ctx, 1, 5)
		if err != nil || cached || len(ids) != 0 {
			t.Fatalf("likers of a blog never cached = %v, %v, %v; want not cached", ids, cached, err)
		}
		if err := likes.Load(ctx, 1, sociallikes.BlogLikes{Version: 4}); err != nil {
			t.Fatal(err)
		}
		ids, cached, err = likes.Likers(ctx, 1, 5)
		if err != nil || !cached || len(ids) != 0 {
			t.Fatalf("likers of a blog cached without likes = %v, %v, %v; want cached, none", ids, cached, err)
		}
		liked, cachedBy, err := likes.LikedBy(ctx, 7, []int64{1, 2})
		if err != nil || !slices.Equal(liked, []bool{false, false}) || !slices.Equal(cachedBy, []bool{true, false}) {
			t.Fatalf("LikedBy = %v, %v, %v; want blog 1 cached, blog 2 not", liked, cachedBy, err)
		}
		if err := likes.Forget(ctx, 1); err != nil {
			t.Fatal(err)
		}
		if _, cached, _ := likes.Likers(ctx, 1, 5); cached {
			t.Fatal("a forgotten blog is still cached")
		}
	})
}

func TestLikeCacheAppliesChangesInOrderOnly(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		likes := redis.NewLikes(conn.Client)
		at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
		apply := func(user int64, c sociallikes.LikeChange) bool {
			t.Helper()
			ok, err := likes.Apply(ctx, 3, user, c)
			if err != nil {
				t.Fatal(err)
			}
			return ok
		}
		// Not cached: nothing to apply to.
		if apply(7, sociallikes.LikeChange{Liked: true, Count: 1, Version: 1, At: at}) {
			t.Fatal("a change applied to a blog not cached")
		}
		// A version as large as the microsecond numbers stored before keeps its digits.
		const base = int64(1_893_553_445_000_000)
		if err := likes.Load(ctx, 3, sociallikes.BlogLikes{Version: base, Likes: []sociallikes.Like{{UserID: 9, At: at}}}); err != nil {
			t.Fatal(err)
		}
		if !apply(7, sociallikes.LikeChange{Liked: true, Count: 2, Version: base + 1, At: at.Add(time.Second)}) {
			t.Fatal("the next change was not applied")
		}
		// The change after next arrives first: refused, nothing changes.
		if apply(9, sociallikes.LikeChange{Liked: false, Count: 1, Version: base + 3}) {
			t.Fatal("a change applied over a missing one")
		}
		// An old change (a load brought it already) is taken as done, and changes nothing.
		if !apply(8, sociallikes.LikeChange{Liked: true, Count: 3, Version: base}) {
			t.Fatal("an old change was not taken as done")
		}
		if ids, _, _ := likes.Likers(ctx, 3, 10); fmt.Sprint(ids) != "[9 7]" {
			t.Fatalf("likers = %v, want [9 7]", ids)
		}
		if !apply(9, sociallikes.LikeChange{Liked: false, Count: 1, Version: base + 2}) {
			t.Fatal("an unlike in order was not applied")
		}
		if ids, _, _ := likes.Likers(ctx, 3, 10); fmt.Sprint(ids) != "[7]" {
			t.Fatalf("likers after the unlike = %v, want [7]", ids)
		}
		// A slow load of an older version does not undo later changes.
		if err := likes.Load(ctx, 3, sociallikes.BlogLikes{Version: base + 1, Likes: []sociallikes.Like{{UserID: 9, At: at}, {UserID: 7, At: at}}}); err != nil {
			t.Fatal(err)
		}
		if n, _ := likes.Count(ctx, 3); n != 1 {
			t.Fatalf("an old load changed the cache: %d likers", n)
		}
		// A newer load replaces the cache.
		if err := likes.Load(ctx, 3, sociallikes.BlogLikes{Version: base + 5, Likes: []sociallikes.Like{{UserID: 4, At: at}, {UserID: 5, At: at}}}); err != nil {
			t.Fatal(err)
		}
		liked, _, err := likes.LikedBy(ctx, 7, []int64{3})
		if err != nil || liked[0] {
			t.Fatalf("after a newer load user 7 likes = %v, %v; want false", liked, err)
		}
		if !apply(6, sociallikes.LikeChange{Liked: true, Count: 3, Version: base + 6, At: at}) {
			t.Fatal("the change after a load was not applied")
		}
		if n, _ := likes.Count(ctx, 3); n != 3 {
			t.Fatalf("%d likers, want 3", n)
		}
	})
}

func TestLikersComeInLikeOrder(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		likes := redis.NewLikes(conn.Client)
		at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
		order := []int64{30, 4, 17, 200, 9, 55, 1}
		if err := likes.Load(ctx, 5, sociallikes.BlogLikes{Version: 0}); err != nil {
			t.Fatal(err)
		}
		for i, u := range order {
			c := sociallikes.LikeChange{Liked: true, Count: i + 1, Version: int64(i + 1), At: at.Add(time.Duration(i) * time.Second)}
			if ok, err := likes.Apply(ctx, 5, u, c); err != nil || !ok {
				t.Fatalf("apply %d: %v, %v", i, ok, err)
			}
		}
		check := func(what string, sizes ...int) {
			t.Helper()
			for _, n := range sizes {
				got, cached, err := likes.Likers(ctx, 5, n)
				if err != nil || !cached {
					t.Fatalf("%s: %v, cached %v", what, err, cached)
				}
				want := order[:min(n, len(order))]
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("%s: first %d likers = %v, want %v", what, n, got, want)
				}
			}
		}
		check("applied one by one", 1, 5, 7, 20)
		// Loaded at once (more than one ZADD batch), the order is the same.
		var all []sociallikes.Like
		for i, u := range order {
			all = append(all, sociallikes.Like{UserID: u, At: at.Add(time.Duration(i) * time.Second)})
		}
		for i := range 1200 {
			all = append(all, sociallikes.Like{UserID: int64(10_000 + i), At: at.Add(time.Hour)})
		}
		if err := likes.Load(ctx, 5, sociallikes.BlogLikes{Version: 100, Likes: all}); err != nil {
			t.Fatal(err)
		}
		check("loaded", 1, 5, 7)
		if n, _ := likes.Count(ctx, 5); n != len(all) {
			t.Fatalf("%d likers loaded, want %d", n, len(all))
		}
	})
}

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
