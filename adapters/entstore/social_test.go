package entstore_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// The blog repository meets the same contract on every backend (the follows: see
// social_contract_test.go); each case gets a database of its own, as in runSuite.

func TestSQLiteSocial(t *testing.T) {
	t.Parallel()
	runCases(t, openSQLite, socialCases)
}

func TestPostgresSocial(t *testing.T) {
	t.Parallel()
	testsupport.Require(t, testsupport.EnvPostgres)
	runCases(t, openPostgres, socialCases)
}

var socialCases = []storeCase{
	{"blogs are read by ids in the order of the ids", testBlogsByIDs},
	{"blog stamps are a user's newest blogs", testBlogStamps},
	{"like counts only move forward in sequence", testSetLiked},
	{"concurrent like-count writes keep the newest", testSetLikedConcurrent},
}

func newBlog(t *testing.T, s *entstore.Store, userID int64, title string, at time.Time) domain.Blog {
	t.Helper()
	b, err := s.Blogs().CreateBlog(t.Context(), domain.Blog{
		ShopID: 1, UserID: userID, Title: title, Content: "content of " + title, CreatedAt: at,
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// What follows.Blogs reads besides notes.Blogs (whose contract, socialtest.BlogsContract,
// runs in social_contract_test.go).

func testBlogsByIDs(t *testing.T, s *entstore.Store) {
	at := time.Date(2030, 5, 6, 7, 8, 9, 0, time.UTC)
	created, noImages := newBlog(t, s, 7, "first", at), newBlog(t, s, 7, "no images", at)
	byIDs, err := s.Blogs().BlogsByIDs(t.Context(), []int64{noImages.ID, created.ID + 1000, created.ID})
	if err != nil || len(byIDs) != 2 || byIDs[0].ID != noImages.ID || byIDs[1].ID != created.ID {
		t.Fatalf("by ids = %+v, %v", byIDs, err)
	}
}

func testBlogStamps(t *testing.T, s *entstore.Store) {
	at := time.Date(2030, 5, 6, 7, 8, 9, 0, time.UTC)
	var newest int64
	for i := range 7 {
		newest = newBlog(t, s, 1, fmt.Sprint("mine ", i), at.Add(time.Duration(i)*time.Minute)).ID
		newBlog(t, s, 2, fmt.Sprint("theirs ", i), at)
	}
	stamps, err := s.Blogs().BlogStamps(t.Context(), 1, 2)
	if err != nil || len(stamps) != 2 || stamps[0].ID != newest || !stamps[0].CreatedAt.Equal(at.Add(6*time.Minute)) {
		t.Fatalf("stamps = %+v, %v", stamps, err)
	}
}

func testSetLiked(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	blogs := s.Blogs()
	b := newBlog(t, s, 1, "liked", time.Now())
	steps := []struct {
		count    int
		seq      int64
		wantOK   bool
		wantLike int
	}{
		{1, 10, true, 1},
		{2, 11, true, 2},
		{1, 11, false, 2}, // the same change again
		{5, 9, false, 2},  // an older change arriving late
		{0, 20, true, 0},
	}
	for i, st := range steps {
		ok, err := blogs.SetLiked(ctx, b.ID, st.count, st.seq)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := blogs.Blog(ctx, b.ID)
		if ok != st.wantOK || got.Liked != st.wantLike {
			t.Fatalf("step %d: wrote %v, liked %d; want %v, %d", i, ok, got.Liked, st.wantOK, st.wantLike)
		}
	}
	if ok, err := blogs.SetLiked(ctx, b.ID+1000, 1, 100); err != nil || ok {
		t.Fatalf("unknown blog: %v, %v", ok, err)
	}
	if _, err := blogs.SetLiked(ctx, b.ID, -1, 100); !errors.Is(err, domain.ErrBadInput) {
		t.Fatalf("negative count: err = %v, want BAD_USER_INPUT", err)
	}
}

func testSetLikedConcurrent(t *testing.T, s *entstore.Store) {
	b := newBlog(t, s, 1, "contended", time.Now())
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for i := range 50 {
		wg.Go(func() {
			// Change number i+1 says i+1 likes: the newest must win whatever the order.
			if _, err := s.Blogs().SetLiked(t.Context(), b.ID, i+1, int64(i+1)); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	got, _ := s.Blogs().Blog(t.Context(), b.ID)
	if got.Liked != 50 {
		t.Fatalf("liked = %d after concurrent writes, want the newest (50)", got.Liked)
	}
}
