package likestest

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/contracttest"
	"github.com/dealspot/dealspot/internal/app/social/likes"
)

// LikesContract is what every likes.Likes must do, as its doc comments say, apart from
// the like sets of earlier versions (Legacy: the adapters' own tests write them). newCache
// returns a cache; caches of one test may share their server, as every case caches
// blogs of its own.
func LikesContract(t *testing.T, newCache func(t *testing.T) likes.Likes) {
	t.Helper()
	contracttest.RunCases(t, newCache,
		contracttest.Case[likes.Likes]{Name: "not cached is told from no likes", Run: likesNotCached},
		contracttest.Case[likes.Likes]{Name: "changes apply in order only", Run: likesInOrder},
		contracttest.Case[likes.Likes]{Name: "likers come in like order", Run: likersInOrder},
	)
}

// likerCount counts the blog's cached likers.
func likerCount(t *testing.T, c likes.Likes, blogID int64) int {
	t.Helper()
	ids, _, err := c.Likers(context.Background(), blogID, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	return len(ids)
}

func likesNotCached(t *testing.T, c likes.Likes) {
	ctx := context.Background()
	blog, other := contracttest.NewID(), contracttest.NewID()
	ids, cached, err := c.Likers(ctx, blog, 5)
	if err != nil || cached || len(ids) != 0 {
		t.Fatalf("likers of a blog never cached = %v, %v, %v; want not cached", ids, cached, err)
	}
	if err := c.Load(ctx, blog, likes.BlogLikes{Version: 4}); err != nil {
		t.Fatal(err)
	}
	ids, cached, err = c.Likers(ctx, blog, 5)
	if err != nil || !cached || len(ids) != 0 {
		t.Fatalf("likers of a blog cached without likes = %v, %v, %v; want cached, none", ids, cached, err)
	}
	liked, cachedBy, err := c.LikedBy(ctx, 7, []int64{blog, other})
	if err != nil || !slices.Equal(liked, []bool{false, false}) || !slices.Equal(cachedBy, []bool{true, false}) {
		t.Fatalf("LikedBy = %v, %v, %v; want the first blog cached, the other not", liked, cachedBy, err)
	}
	if err := c.Forget(ctx, blog); err != nil {
		t.Fatal(err)
	}
	if _, cached, _ := c.Likers(ctx, blog, 5); cached {
		t.Fatal("a forgotten blog is still cached")
	}
}

func likesInOrder(t *testing.T, c likes.Likes) {
	ctx := context.Background()
	blog := contracttest.NewID()
	at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	apply := func(user int64, ch likes.LikeChange) bool {
		t.Helper()
		ok, err := c.Apply(ctx, blog, user, ch)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	// Not cached: nothing to apply to.
	if apply(7, likes.LikeChange{Liked: true, Count: 1, Version: 1, At: at}) {
		t.Fatal("a change applied to a blog not cached")
	}
	// A version as large as the microsecond numbers stored before keeps its digits.
	const base = int64(1_893_553_445_000_000)
	if err := c.Load(ctx, blog, likes.BlogLikes{Version: base, Likes: []likes.Like{{UserID: 9, At: at}}}); err != nil {
		t.Fatal(err)
	}
	if !apply(7, likes.LikeChange{Liked: true, Count: 2, Version: base + 1, At: at.Add(time.Second)}) {
		t.Fatal("the next change was not applied")
	}
	// The change after next arrives first: refused, nothing changes.
	if apply(9, likes.LikeChange{Liked: false, Count: 1, Version: base + 3}) {
		t.Fatal("a change applied over a missing one")
	}
	// An old change (a load brought it already) is taken as done, and changes nothing.
	if !apply(8, likes.LikeChange{Liked: true, Count: 3, Version: base}) {
		t.Fatal("an old change was not taken as done")
	}
	if ids, _, _ := c.Likers(ctx, blog, 10); fmt.Sprint(ids) != "[9 7]" {
		t.Fatalf("likers = %v, want [9 7]", ids)
	}
	if !apply(9, likes.LikeChange{Liked: false, Count: 1, Version: base + 2}) {
		t.Fatal("an unlike in order was not applied")
	}
	if ids, _, _ := c.Likers(ctx, blog, 10); fmt.Sprint(ids) != "[7]" {
		t.Fatalf("likers after the unlike = %v, want [7]", ids)
	}
	// A slow load of an older version does not undo later changes.
	if err := c.Load(ctx, blog, likes.BlogLikes{Version: base + 1, Likes: []likes.Like{{UserID: 9, At: at}, {UserID: 7, At: at}}}); err != nil {
		t.Fatal(err)
	}
	if n := likerCount(t, c, blog); n != 1 {
		t.Fatalf("an old load changed the cache: %d likers", n)
	}
	// A newer load replaces the cache.
	if err := c.Load(ctx, blog, likes.BlogLikes{Version: base + 5, Likes: []likes.Like{{UserID: 4, At: at}, {UserID: 5, At: at}}}); err != nil {
		t.Fatal(err)
	}
	liked, _, err := c.LikedBy(ctx, 7, []int64{blog})
	if err != nil || liked[0] {
		t.Fatalf("after a newer load user 7 likes = %v, %v; want false", liked, err)
	}
	if !apply(6, likes.LikeChange{Liked: true, Count: 3, Version: base + 6, At: at}) {
		t.Fatal("the change after a load was not applied")
	}
	if n := likerCount(t, c, blog); n != 3 {
		t.Fatalf("%d likers, want 3", n)
	}
}

func likersInOrder(t *testing.T, c likes.Likes) {
	ctx := context.Background()
	blog := contracttest.NewID()
	at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	order := []int64{30, 4, 17, 200, 9, 55, 1}
	if err := c.Load(ctx, blog, likes.BlogLikes{Version: 0}); err != nil {
		t.Fatal(err)
	}
	for i, u := range order {
		ch := likes.LikeChange{Liked: true, Count: i + 1, Version: int64(i + 1), At: at.Add(time.Duration(i) * time.Second)}
		if ok, err := c.Apply(ctx, blog, u, ch); err != nil || !ok {
			t.Fatalf("apply %d: %v, %v", i, ok, err)
		}
	}
	check := func(what string, sizes ...int) {
		t.Helper()
		for _, n := range sizes {
			got, cached, err := c.Likers(ctx, blog, n)
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
	// Loaded at once (more than one batch of a server's writes), the order is the same.
	var all []likes.Like
	for i, u := range order {
		all = append(all, likes.Like{UserID: u, At: at.Add(time.Duration(i) * time.Second)})
	}
	for i := range 1200 {
		all = append(all, likes.Like{UserID: int64(10_000 + i), At: at.Add(time.Hour)})
	}
	if err := c.Load(ctx, blog, likes.BlogLikes{Version: 100, Likes: all}); err != nil {
		t.Fatal(err)
	}
	check("loaded", 1, 5, 7)
	if n := likerCount(t, c, blog); n != len(all) {
		t.Fatalf("%d likers loaded, want %d", n, len(all))
	}
}
