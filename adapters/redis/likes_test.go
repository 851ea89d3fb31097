package redis_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
	"github.com/dealspot/dealspot/internal/app/social"
)

func TestLikeToggleAlternatesAndNumbersChanges(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		likes := redis.NewLikes(conn.Client)
		at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
		steps := []struct {
			user      int64
			wantLiked bool
			wantCount int
		}{
			{7, true, 1}, {8, true, 2}, {7, false, 1}, {7, true, 2}, {8, false, 1}, {7, false, 0},
		}
		var last int64
		for i, s := range steps {
			got, err := likes.Toggle(ctx, 1, s.user, at.Add(time.Duration(i)*time.Millisecond))
			if err != nil {
				t.Fatal(err)
			}
			if got.Liked != s.wantLiked || got.Count != s.wantCount {
				t.Fatalf("step %d: %+v, want liked %v count %d", i, got, s.wantLiked, s.wantCount)
			}
			if got.Seq <= last {
				t.Fatalf("step %d: seq %d does not follow %d", i, got.Seq, last)
			}
			last = got.Seq
		}
		if n, err := likes.Count(ctx, 1); err != nil || n != 0 {
			t.Fatalf("Count = %d, %v; want 0", n, err)
		}
	})
}

func TestLikeSeqStaysAheadOfTheClockAfterRedisLosesIt(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		likes := redis.NewLikes(conn.Client)
		at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
		first, err := likes.Toggle(ctx, 2, 1, at)
		if err != nil {
			t.Fatal(err)
		}
		if first.Seq < at.UnixMicro() {
			t.Fatalf("seq %d below the caller's clock %d", first.Seq, at.UnixMicro())
		}
		// Redis loses everything; numbering must still pass what the database holds.
		if err := conn.Client.FlushDB(ctx).Err(); err != nil {
			t.Fatal(err)
		}
		again, err := likes.Toggle(ctx, 2, 1, at.Add(time.Second))
		if err != nil {
			t.Fatal(err)
		}
		if !again.Liked || again.Count != 1 || again.Seq <= first.Seq {
			t.Fatalf("after the loss: %+v, want a like numbered after %d", again, first.Seq)
		}
	})
}

func TestConcurrentLikesAndDoubleClicks(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		likes := redis.NewLikes(conn.Client)
		const users = 100
		toggleAll := func(perUser int) []social.LikeToggle {
			t.Helper()
			var (
				wg   sync.WaitGroup
				mu   sync.Mutex
				all  []social.LikeToggle
				errs []error
			)
			for u := int64(1); u <= users; u++ {
				for range perUser {
					wg.Go(func() {
						r, err := likes.Toggle(ctx, 3, u, time.Now())
						mu.Lock()
						defer mu.Unlock()
						all, errs = append(all, r), append(errs, err)
					})
				}
			}
			wg.Wait()
			for _, err := range errs {
				if err != nil {
					t.Fatal(err)
				}
			}
			return all
		}
		check := func(what string, want int, changes []social.LikeToggle) {
			t.Helper()
			if n, _ := likes.Count(ctx, 3); n != want {
				t.Fatalf("%s: %d likers, want %d", what, n, want)
			}
			// Every change has its own number, and the highest number carries the
			// final count: the one a database write keeps.
			seqs := map[int64]bool{}
			top := changes[0]
			for _, c := range changes {
				if seqs[c.Seq] {
					t.Fatalf("%s: seq %d given twice", what, c.Seq)
				}
				seqs[c.Seq] = true
				if c.Seq > top.Seq {
					top = c
				}
			}
			if top.Count != want {
				t.Fatalf("%s: the newest change says %d likers, want %d", what, top.Count, want)
			}
		}
		check("100 users like at once", users, toggleAll(1))
		check("each takes the like back", 0, toggleAll(1))
		check("each double-clicks", 0, toggleAll(2))
		check("each triple-clicks", users, toggleAll(3))
		liked, err := likes.LikedBy(ctx, 42, []int64{3, 4, 3})
		if err != nil || !slices.Equal(liked, []bool{true, false, true}) {
			t.Fatalf("LikedBy = %v, %v", liked, err)
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
		for i, u := range order {
			if _, err := likes.Toggle(ctx, 5, u, at.Add(time.Duration(i)*time.Second)); err != nil {
				t.Fatal(err)
			}
		}
		for _, n := range []int{1, 5, 7, 20} {
			got, err := likes.Likers(ctx, 5, n)
			if err != nil {
				t.Fatal(err)
			}
			want := order[:min(n, len(order))]
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("first %d likers = %v, want %v", n, got, want)
			}
		}
		if got, err := likes.Likers(ctx, 6, 5); err != nil || len(got) != 0 {
			t.Fatalf("likers of a blog nobody liked = %v, %v", got, err)
		}
	})
}
