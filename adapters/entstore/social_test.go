package entstore_test

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/app/social/notes"
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
	{"blog is created and read back", testBlogCreateRead},
	{"blogs of a user page newest first", testBlogsOfUser},
	{"hot blogs page by likes then id", testHotBlogs},
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

func testBlogCreateRead(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	blogs := s.Blogs()
	at := time.Date(2030, 5, 6, 7, 8, 9, 123_000_000, time.UTC)
	in := domain.Blog{
		ShopID: 3, UserID: 7, Title: "无尽浪漫的夜晚丨在万花丛中摇晃着红酒杯🍷品战斧牛排",
		Content: "生活就是一半烟火·一半诗意\n手执烟火谋生活·心怀诗意以谋爱",
		Images:  []string{"/imgs/blogs/7/14/4771fefb.jpg", "https://cdn.example.com/b.png"}, CreatedAt: at,
	}
	created, err := blogs.CreateBlog(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	got, err := blogs.Blog(ctx, created.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID <= 0 || got.Title != in.Title || got.Content != in.Content || !slices.Equal(got.Images, in.Images) ||
		got.ShopID != 3 || got.UserID != 7 || got.Liked != 0 || !got.CreatedAt.Equal(at) {
		t.Fatalf("read back %+v\nwant %+v", got, in)
	}
	noImages := newBlog(t, s, 7, "no images", at)
	if got, _ := blogs.Blog(ctx, noImages.ID); len(got.Images) != 0 {
		t.Fatalf("images = %q, want none", got.Images)
	}
	if _, err := blogs.Blog(ctx, created.ID+1000); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("missing blog: err = %v, want NOT_FOUND", err)
	}
	byIDs, err := blogs.BlogsByIDs(ctx, []int64{noImages.ID, created.ID + 1000, created.ID})
	if err != nil || len(byIDs) != 2 || byIDs[0].ID != noImages.ID || byIDs[1].ID != created.ID {
		t.Fatalf("by ids = %+v, %v", byIDs, err)
	}
	for name, bad := range map[string]domain.Blog{
		"comma in an image": {ShopID: 1, UserID: 7, Title: "t", Images: []string{"a,b"}},
		"empty title":       {ShopID: 1, UserID: 7},
	} {
		if _, err := blogs.CreateBlog(ctx, bad); !errors.Is(err, domain.ErrBadInput) {
			t.Errorf("%s: err = %v, want BAD_USER_INPUT", name, err)
		}
	}
}

func testBlogsOfUser(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	at := time.Date(2030, 5, 6, 7, 8, 9, 0, time.UTC)
	var mine []int64
	for i := range 7 {
		mine = append(mine, newBlog(t, s, 1, fmt.Sprint("mine ", i), at.Add(time.Duration(i)*time.Minute)).ID)
		newBlog(t, s, 2, fmt.Sprint("theirs ", i), at)
	}
	slices.Reverse(mine)
	var got []int64
	before := int64(0)
	for {
		page, err := s.Blogs().BlogsOfUser(ctx, 1, before, 3)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range page {
			if b.UserID != 1 {
				t.Fatalf("blog of user %d in the page", b.UserID)
			}
			got = append(got, b.ID)
			before = b.ID
		}
		if len(page) < 3 {
			break
		}
	}
	if !slices.Equal(got, mine) {
		t.Fatalf("paged %v, want %v", got, mine)
	}
	stamps, err := s.Blogs().BlogStamps(ctx, 1, 2)
	if err != nil || len(stamps) != 2 || stamps[0].ID != mine[0] || !stamps[0].CreatedAt.Equal(at.Add(6*time.Minute)) {
		t.Fatalf("stamps = %+v, %v", stamps, err)
	}
}

func testHotBlogs(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	at := time.Now()
	likes := []int{3, 0, 5, 3, 5, 1, 3}
	var ids []int64
	for i, n := range likes {
		b := newBlog(t, s, 1, fmt.Sprint("blog ", i), at)
		if ok, err := s.Blogs().SetLiked(ctx, b.ID, n, 1); err != nil || !ok {
			t.Fatalf("SetLiked = %v, %v", ok, err)
		}
		ids = append(ids, b.ID)
	}
	// Most liked first; equal likes: higher id first.
	want := []int64{ids[4], ids[2], ids[6], ids[3], ids[0], ids[5], ids[1]}
	for _, size := range []int{1, 2, 3, 10} {
		var got []int64
		var after *notes.HotPosition
		for range 20 {
			page, err := s.Blogs().HotBlogs(ctx, after, size)
			if err != nil {
				t.Fatal(err)
			}
			for _, b := range page {
				got = append(got, b.ID)
				after = &notes.HotPosition{Liked: b.Liked, ID: b.ID}
			}
			if len(page) < size {
				break
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("page size %d: %v, want %v", size, got, want)
		}
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
