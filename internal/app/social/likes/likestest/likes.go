package likestest

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/contracttest"
	"github.com/dealspot/dealspot/internal/app/social/likes"
	"github.com/dealspot/dealspot/internal/domain"
)

// LikeStoreFixture is a likes.LikeStore under test with what the contract needs beside
// it: blogs to like, and the count stored with each.
type LikeStoreFixture struct {
	Store likes.LikeStore
	// NewBlog makes a blog no one likes and returns its id; no blog's id is 1000 more.
	NewBlog func(t *testing.T) int64
	// Count reads the like count stored with the blog.
	Count func(t *testing.T, blogID int64) int
}

// LikeStoreContract is what every likes.LikeStore must do, as its doc comments say.
// newStore returns a store for each case.
func LikeStoreContract(t *testing.T, newStore func(t *testing.T) LikeStoreFixture) {
	t.Helper()
	contracttest.RunCases(t, newStore,
		contracttest.Case[LikeStoreFixture]{Name: "likes and unlikes are idempotent and count from the table", Run: likeSet},
		contracttest.Case[LikeStoreFixture]{Name: "concurrent likes and unlikes never drift the count", Run: likeSetConcurrent},
		contracttest.Case[LikeStoreFixture]{Name: "likes only Redis held are imported once", Run: likeImport},
	)
}

func likeSet(t *testing.T, f LikeStoreFixture) {
	ctx := context.Background()
	at := time.Date(2030, 1, 2, 3, 4, 5, 6_000_000, time.UTC)
	blog := f.NewBlog(t)
	store := f.Store
	for _, like := range []bool{true, false} {
		if _, err := store.SetLike(ctx, blog+1000, 7, like, at); !errors.Is(err, domain.ErrNotFound) {
			t.Fatalf("like %v of an unknown blog: %v, want NOT_FOUND", like, err)
		}
	}
	if _, err := store.BlogLikes(ctx, blog+1000); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("likes of an unknown blog: %v, want NOT_FOUND", err)
	}
	start, err := store.BlogLikes(ctx, blog)
	if err != nil || len(start.Likes) != 0 {
		t.Fatalf("likes of a new blog = %+v, %v", start, err)
	}
	// Each step asks for a like (or an unlike); a step that asks for what is already so
	// changes nothing and keeps the version.
	steps := []struct {
		user        int64
		like        bool
		wantChanged bool
		wantCount   int
	}{
		{7, true, true, 1}, {8, true, true, 2}, {7, true, false, 2}, {7, false, true, 1}, {7, false, false, 1},
		{7, true, true, 2}, {9, true, true, 3}, {8, false, true, 2}, {8, false, false, 2}, {9, true, false, 2},
	}
	version := start.Version
	for i, st := range steps {
		c, err := store.SetLike(ctx, blog, st.user, st.like, at.Add(time.Duration(i)*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		if st.wantChanged {
			version++
		}
		if c.Changed != st.wantChanged || c.Liked != st.like || c.Count != st.wantCount || c.Version != version {
			t.Fatalf("step %d: %+v, want changed %v liked %v count %d version %d", i, c, st.wantChanged, st.like, st.wantCount, version)
		}
	}
	got, err := store.BlogLikes(ctx, blog)
	if err != nil {
		t.Fatal(err)
	}
	// User 7's like is the one of step 5 and user 9's of step 6: a repeated like keeps
	// the first one's time.
	if got.Version != version || len(got.Likes) != 2 ||
		got.Likes[0].UserID != 7 || got.Likes[1].UserID != 9 ||
		!got.Likes[0].At.Equal(at.Add(5*time.Second)) || !got.Likes[1].At.Equal(at.Add(6*time.Second)) {
		t.Fatalf("likes = %+v", got)
	}
	if stored := f.Count(t, blog); stored != 2 {
		t.Fatalf("blog's count = %d; want 2", stored)
	}
}

func likeSetConcurrent(t *testing.T, f LikeStoreFixture) {
	ctx := context.Background()
	blog := f.NewBlog(t)
	store := f.Store
	const users, clicks = 20, 3
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		changes []likes.LikeChange
		errs    []error
	)
	// Each user likes the blog three times at once; users with an even id also unlike it
	// once, after their likes.
	for u := int64(1); u <= users; u++ {
		wg.Go(func() {
			var inner sync.WaitGroup
			for range clicks {
				inner.Go(func() {
					c, err := store.SetLike(ctx, blog, u, true, time.Now())
					mu.Lock()
					defer mu.Unlock()
					changes, errs = append(changes, c), append(errs, err)
				})
			}
			inner.Wait()
			if u%2 == 0 {
				c, err := store.SetLike(ctx, blog, u, false, time.Now())
				mu.Lock()
				defer mu.Unlock()
				changes, errs = append(changes, c), append(errs, err)
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	// Each user's like changed once (the other two changed nothing), and each unlike
	// once. The changes' versions are consecutive, each change's count is the count
	// after it, and the last one is the stored count.
	changes = slices.DeleteFunc(changes, func(c likes.LikeChange) bool { return !c.Changed })
	if len(changes) != users+users/2 {
		t.Fatalf("%d changes, want %d likes and %d unlikes", len(changes), users, users/2)
	}
	slices.SortFunc(changes, func(a, b likes.LikeChange) int { return int(a.Version - b.Version) })
	for i := 1; i < len(changes); i++ {
		if changes[i].Version != changes[i-1].Version+1 {
			t.Fatalf("versions %d then %d", changes[i-1].Version, changes[i].Version)
		}
		step := 1
		if !changes[i].Liked {
			step = -1
		}
		if changes[i].Count != changes[i-1].Count+step {
			t.Fatalf("version %d counted %d after %d", changes[i].Version, changes[i].Count, changes[i-1].Count)
		}
	}
	got, err := store.BlogLikes(ctx, blog)
	if err != nil {
		t.Fatal(err)
	}
	stored := f.Count(t, blog)
	last := changes[len(changes)-1]
	if len(got.Likes) != users/2 || stored != users/2 || last.Count != users/2 || got.Version != last.Version {
		t.Fatalf("%d likes, count %d, last change %+v, version %d; want %d", len(got.Likes), stored, last, got.Version, users/2)
	}
}

func likeImport(t *testing.T, f LikeStoreFixture) {
	ctx := context.Background()
	at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	blog := f.NewBlog(t)
	store := f.Store
	if _, err := store.SetLike(ctx, blog, 7, true, at); err != nil {
		t.Fatal(err)
	}
	before, err := store.BlogLikes(ctx, blog)
	if err != nil {
		t.Fatal(err)
	}
	legacy := []likes.Like{{UserID: 7, At: at.Add(-time.Hour)}, {UserID: 8, At: at.Add(time.Second)}}
	for i := range 1500 {
		legacy = append(legacy, likes.Like{UserID: int64(100 + i), At: at.Add(time.Minute)})
	}
	n, err := store.Import(ctx, blog, legacy)
	if err != nil || n != len(legacy)-1 {
		t.Fatalf("imported %d, %v; want %d (user 7's like is there already)", n, err, len(legacy)-1)
	}
	after, err := store.BlogLikes(ctx, blog)
	if err != nil {
		t.Fatal(err)
	}
	stored := f.Count(t, blog)
	if len(after.Likes) != len(legacy) || stored != len(legacy) || after.Version != before.Version+1 ||
		after.Likes[0].UserID != 7 || !after.Likes[0].At.Equal(at) {
		t.Fatalf("after the import: %d likes, count %d, version %d (was %d), first %+v", len(after.Likes), stored, after.Version, before.Version, after.Likes[0])
	}
	if n, err := store.Import(ctx, blog, legacy); err != nil || n != 0 {
		t.Fatalf("importing again added %d, %v", n, err)
	}
	if _, err := store.Import(ctx, blog+1000, legacy); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("import into an unknown blog: %v, want NOT_FOUND", err)
	}
}
