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
		contracttest.Case[LikeStoreFixture]{Name: "a like toggles and counts from the table", Run: likeToggle},
		contracttest.Case[LikeStoreFixture]{Name: "concurrent toggles alternate and the count never drifts", Run: likeToggleConcurrent},
		contracttest.Case[LikeStoreFixture]{Name: "likes only Redis held are imported once", Run: likeImport},
	)
}

func likeToggle(t *testing.T, f LikeStoreFixture) {
	ctx := context.Background()
	at := time.Date(2030, 1, 2, 3, 4, 5, 6_000_000, time.UTC)
	blog := f.NewBlog(t)
	store := f.Store
	if _, err := store.Toggle(ctx, blog+1000, 7, at); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("toggle of an unknown blog: %v, want NOT_FOUND", err)
	}
	if _, err := store.BlogLikes(ctx, blog+1000); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("likes of an unknown blog: %v, want NOT_FOUND", err)
	}
	start, err := store.BlogLikes(ctx, blog)
	if err != nil || len(start.Likes) != 0 {
		t.Fatalf("likes of a new blog = %+v, %v", start, err)
	}
	steps := []struct {
		user      int64
		wantLiked bool
		wantCount int
	}{
		{7, true, 1}, {8, true, 2}, {7, false, 1}, {7, true, 2}, {9, true, 3}, {8, false, 2},
	}
	for i, st := range steps {
		c, err := store.Toggle(ctx, blog, st.user, at.Add(time.Duration(i)*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		if c.Liked != st.wantLiked || c.Count != st.wantCount || c.Version != start.Version+int64(i+1) {
			t.Fatalf("step %d: %+v, want liked %v count %d version %d", i, c, st.wantLiked, st.wantCount, start.Version+int64(i+1))
		}
	}
	got, err := store.BlogLikes(ctx, blog)
	if err != nil {
		t.Fatal(err)
	}
	if got.Version != start.Version+int64(len(steps)) || len(got.Likes) != 2 ||
		got.Likes[0].UserID != 7 || got.Likes[1].UserID != 9 ||
		!got.Likes[0].At.Equal(at.Add(3*time.Second)) || !got.Likes[1].At.Equal(at.Add(4*time.Second)) {
		t.Fatalf("likes = %+v", got)
	}
	if stored := f.Count(t, blog); stored != 2 {
		t.Fatalf("blog's count = %d; want 2", stored)
	}
}

func likeToggleConcurrent(t *testing.T, f LikeStoreFixture) {
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
	for u := int64(1); u <= users; u++ {
		for range clicks {
			wg.Go(func() {
				c, err := store.Toggle(ctx, blog, u, time.Now())
				mu.Lock()
				defer mu.Unlock()
				changes, errs = append(changes, c), append(errs, err)
			})
		}
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	// Three clicks each: every user likes it. Versions are consecutive, each change's
	// count is the count after it, and the last one is the stored count.
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
	if len(got.Likes) != users || stored != users || last.Count != users || got.Version != last.Version {
		t.Fatalf("%d likes, count %d, last change %+v, version %d; want %d", len(got.Likes), stored, last, got.Version, users)
	}
}

func likeImport(t *testing.T, f LikeStoreFixture) {
	ctx := context.Background()
	at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	blog := f.NewBlog(t)
	store := f.Store
	if _, err := store.Toggle(ctx, blog, 7, at); err != nil {
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
