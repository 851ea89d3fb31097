package entstore_test

import (
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/entstore"
	sociallikes "github.com/dealspot/dealspot/internal/app/social/likes"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// Likes are kept in the database alike on every backend.

func TestSQLiteUserFacts(t *testing.T) {
	t.Parallel()
	runCases(t, openSQLite, userFactsCases)
}

func TestPostgresUserFacts(t *testing.T) {
	t.Parallel()
	testsupport.Require(t, testsupport.EnvPostgres)
	runCases(t, openPostgres, userFactsCases)
}

var userFactsCases = []storeCase{
	{"a like toggles and counts from the table", testLikeToggle},
	{"concurrent toggles alternate and the count never drifts", testLikeToggleConcurrent},
	{"likes only Redis held are imported once", testLikeImport},
}

func testLikeToggle(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	at := time.Date(2030, 1, 2, 3, 4, 5, 6_000_000, time.UTC)
	b := newBlog(t, s, 1, "liked", at)
	likes := s.Likes()
	if _, err := likes.Toggle(ctx, b.ID+1000, 7, at); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("toggle of an unknown blog: %v, want NOT_FOUND", err)
	}
	if _, err := likes.BlogLikes(ctx, b.ID+1000); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("likes of an unknown blog: %v, want NOT_FOUND", err)
	}
	start, err := likes.BlogLikes(ctx, b.ID)
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
		c, err := likes.Toggle(ctx, b.ID, st.user, at.Add(time.Duration(i)*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		if c.Liked != st.wantLiked || c.Count != st.wantCount || c.Version != start.Version+int64(i+1) {
			t.Fatalf("step %d: %+v, want liked %v count %d version %d", i, c, st.wantLiked, st.wantCount, start.Version+int64(i+1))
		}
	}
	got, err := likes.BlogLikes(ctx, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Version != start.Version+int64(len(steps)) || len(got.Likes) != 2 ||
		got.Likes[0].UserID != 7 || got.Likes[1].UserID != 9 ||
		!got.Likes[0].At.Equal(at.Add(3*time.Second)) || !got.Likes[1].At.Equal(at.Add(4*time.Second)) {
		t.Fatalf("likes = %+v", got)
	}
	stored, err := s.Blogs().Blog(ctx, b.ID)
	if err != nil || stored.Liked != 2 {
		t.Fatalf("blog's count = %d, %v; want 2", stored.Liked, err)
	}
}

func testLikeToggleConcurrent(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	b := newBlog(t, s, 1, "busy", time.Now())
	likes := s.Likes()
	const users, clicks = 20, 3
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		changes []sociallikes.LikeChange
		errs    []error
	)
	for u := int64(1); u <= users; u++ {
		for range clicks {
			wg.Go(func() {
				c, err := likes.Toggle(ctx, b.ID, u, time.Now())
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
	slices.SortFunc(changes, func(a, b sociallikes.LikeChange) int { return int(a.Version - b.Version) })
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
	got, err := likes.BlogLikes(ctx, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := s.Blogs().Blog(ctx, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	last := changes[len(changes)-1]
	if len(got.Likes) != users || stored.Liked != users || last.Count != users || got.Version != last.Version {
		t.Fatalf("%d likes, count %d, last change %+v, version %d; want %d", len(got.Likes), stored.Liked, last, got.Version, users)
	}
}

func testLikeImport(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	b := newBlog(t, s, 1, "imported", at)
	likes := s.Likes()
	if _, err := likes.Toggle(ctx, b.ID, 7, at); err != nil {
		t.Fatal(err)
	}
	before, err := likes.BlogLikes(ctx, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	legacy := []sociallikes.Like{{UserID: 7, At: at.Add(-time.Hour)}, {UserID: 8, At: at.Add(time.Second)}}
	for i := range 1500 {
		legacy = append(legacy, sociallikes.Like{UserID: int64(100 + i), At: at.Add(time.Minute)})
	}
	n, err := likes.Import(ctx, b.ID, legacy)
	if err != nil || n != len(legacy)-1 {
		t.Fatalf("imported %d, %v; want %d (user 7's like is there already)", n, err, len(legacy)-1)
	}
	after, err := likes.BlogLikes(ctx, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := s.Blogs().Blog(ctx, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(after.Likes) != len(legacy) || stored.Liked != len(legacy) || after.Version != before.Version+1 ||
		after.Likes[0].UserID != 7 || !after.Likes[0].At.Equal(at) {
		t.Fatalf("after the import: %d likes, count %d, version %d (was %d), first %+v", len(after.Likes), stored.Liked, after.Version, before.Version, after.Likes[0])
	}
	if n, err := likes.Import(ctx, b.ID, legacy); err != nil || n != 0 {
		t.Fatalf("importing again added %d, %v", n, err)
	}
	if _, err := likes.Import(ctx, b.ID+1000, legacy); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("import into an unknown blog: %v, want NOT_FOUND", err)
	}
}
