package entstore_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// The blog repository's like counts behave the same on every backend (its reads are the
// contracts' of follows.Blogs and notes.Blogs, and the follows': see
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
