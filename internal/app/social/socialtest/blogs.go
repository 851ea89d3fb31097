package socialtest

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/contracttest"
	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/domain"
)

// BlogStore is a blog store and a way to set a blog's like count, as the likes
// package's store does.
type BlogStore struct {
	notes.Blogs
	Like func(t *testing.T, id int64, liked int)
}

// BlogsContract is what every notes.Blogs must do, as its doc comments say: a blog reads
// back as written, what the store cannot hold is refused, blogs page newest first by
// author and by shop and come first per author or shop, hot blogs page by likes then
// id, an update sees the blog as stored and a delete reports whether it found it.
// newStore returns a store of its own (hot blogs are every blog of the store).
func BlogsContract(t *testing.T, newStore func(t *testing.T) BlogStore) {
	t.Helper()
	contracttest.RunCases(t, newStore,
		contracttest.Case[BlogStore]{Name: "blog is created and read back", Run: blogCreateRead},
		contracttest.Case[BlogStore]{Name: "blogs of a user page newest first", Run: blogsOfUser},
		contracttest.Case[BlogStore]{Name: "blogs of a shop page newest first, and come first per shop or user", Run: blogsOfShop},
		contracttest.Case[BlogStore]{Name: "hot blogs page by likes then id", Run: hotBlogs},
		contracttest.Case[BlogStore]{Name: "a blog is updated as stored and deleted once", Run: blogUpdateDelete},
	)
}

// newBlogAt stores a blog of userID about shopID, titled title, created at.
func newBlogAt(t *testing.T, blogs notes.Blogs, shopID, userID int64, title string, at time.Time) domain.Blog {
	t.Helper()
	b, err := blogs.CreateBlog(t.Context(), domain.Blog{
		ShopID: shopID, UserID: userID, Title: title, Content: "content of " + title, CreatedAt: at,
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func blogCreateRead(t *testing.T, s BlogStore) {
	ctx := t.Context()
	at := time.Date(2030, 5, 6, 7, 8, 9, 123_000_000, time.UTC)
	in := domain.Blog{
		ShopID: 3, UserID: 7, Title: "无尽浪漫的夜晚丨在万花丛中摇晃着红酒杯🍷品战斧牛排",
		Content: "生活就是一半烟火·一半诗意\n手执烟火谋生活·心怀诗意以谋爱",
		Images:  []string{"/imgs/blogs/7/14/4771fefb.jpg", "https://cdn.example.com/b.png"}, CreatedAt: at,
	}
	created, err := s.CreateBlog(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Blog(ctx, created.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID <= 0 || got.Title != in.Title || got.Content != in.Content || !slices.Equal(got.Images, in.Images) ||
		got.ShopID != 3 || got.UserID != 7 || got.Liked != 0 || !got.CreatedAt.Equal(at) {
		t.Fatalf("read back %+v\nwant %+v", got, in)
	}
	noImages := newBlogAt(t, s, 1, 7, "no images", at)
	if got, _ := s.Blog(ctx, noImages.ID); len(got.Images) != 0 {
		t.Fatalf("images = %q, want none", got.Images)
	}
	if _, err := s.Blog(ctx, created.ID+1000); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("missing blog: err = %v, want NOT_FOUND", err)
	}
	for name, bad := range map[string]domain.Blog{
		"comma in an image": {ShopID: 1, UserID: 7, Title: "t", Images: []string{"a,b"}},
		"empty title":       {ShopID: 1, UserID: 7},
	} {
		if _, err := s.CreateBlog(ctx, bad); !errors.Is(err, domain.ErrBadInput) {
			t.Errorf("%s: err = %v, want BAD_USER_INPUT", name, err)
		}
	}
}

// wantPages pages through next, size at a time, until a short page, and wants the ids
// of want, every blog one that mine holds for.
func wantPages(t *testing.T, size int, next func(before int64, size int) ([]domain.Blog, error), mine func(domain.Blog) bool, want []int64) {
	t.Helper()
	var got []int64
	before := int64(0)
	for {
		page, err := next(before, size)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range page {
			if !mine(b) {
				t.Fatalf("blog of user %d, shop %d in the page", b.UserID, b.ShopID)
			}
			got = append(got, b.ID)
			before = b.ID
		}
		if len(page) < size {
			break
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("paged %v, want %v", got, want)
	}
}

func blogsOfUser(t *testing.T, s BlogStore) {
	ctx := t.Context()
	at := time.Date(2030, 5, 6, 7, 8, 9, 0, time.UTC)
	var mine []int64
	for i := range 7 {
		mine = append(mine, newBlogAt(t, s, 1, 1, fmt.Sprint("mine ", i), at.Add(time.Duration(i)*time.Minute)).ID)
		newBlogAt(t, s, 1, 2, fmt.Sprint("theirs ", i), at)
	}
	slices.Reverse(mine)
	wantPages(t, 3, func(before int64, size int) ([]domain.Blog, error) { return s.BlogsOfUser(ctx, 1, before, size) },
		func(b domain.Blog) bool { return b.UserID == 1 }, mine)
}

func blogsOfShop(t *testing.T, s BlogStore) {
	ctx, at := t.Context(), time.Date(2030, 5, 6, 7, 8, 9, 0, time.UTC)
	var ours []int64
	for i := range 5 {
		ours = append(ours, newBlogAt(t, s, 10, int64(20+i%2), fmt.Sprint("ours ", i), at).ID)
		newBlogAt(t, s, 11, 22, fmt.Sprint("next door ", i), at)
	}
	slices.Reverse(ours)
	wantPages(t, 2, func(before int64, size int) ([]domain.Blog, error) { return s.BlogsOfShop(ctx, 10, before, size) },
		func(b domain.Blog) bool { return b.ShopID == 10 }, ours)
	ids := func(bs []domain.Blog) []int64 {
		out := make([]int64, len(bs))
		for i, b := range bs {
			out[i] = b.ID
		}
		return out
	}
	byShop, err := s.FirstBlogs(ctx, true, []int64{10, 11, 12}, 2)
	if err != nil || !slices.Equal(ids(byShop[10]), ours[:2]) || len(byShop[11]) != 2 || len(byShop[12]) != 0 {
		t.Fatalf("first blogs by shop = %+v, %v; want shop 10's %v, two of shop 11's, none of shop 12's", byShop, err, ours[:2])
	}
	byUser, err := s.FirstBlogs(ctx, false, []int64{20, 21}, 5)
	if err != nil || !slices.Equal(ids(byUser[20]), []int64{ours[0], ours[2], ours[4]}) || !slices.Equal(ids(byUser[21]), []int64{ours[1], ours[3]}) {
		t.Fatalf("first blogs by user = %+v, %v", byUser, err)
	}
	if none, err := s.FirstBlogs(ctx, false, nil, 5); err != nil || len(none) != 0 {
		t.Fatalf("first blogs of no one = %+v, %v", none, err)
	}
}

func hotBlogs(t *testing.T, s BlogStore) {
	ctx := t.Context()
	at := time.Now()
	likes := []int{3, 0, 5, 3, 5, 1, 3}
	var ids []int64
	for i, n := range likes {
		b := newBlogAt(t, s, 1, 1, fmt.Sprint("blog ", i), at)
		s.Like(t, b.ID, n)
		ids = append(ids, b.ID)
	}
	// Most liked first; equal likes: higher id first.
	want := []int64{ids[4], ids[2], ids[6], ids[3], ids[0], ids[5], ids[1]}
	for _, size := range []int{1, 2, 3, 10} {
		var got []int64
		var after *notes.HotPosition
		for range 20 {
			page, err := s.HotBlogs(ctx, after, size)
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

func blogUpdateDelete(t *testing.T, s BlogStore) {
	ctx := t.Context()
	b := newBlogAt(t, s, 1, 1, "draft", time.Now())
	updated, err := s.UpdateBlog(ctx, b.ID, func(stored *domain.Blog) error {
		if stored.Title != "draft" || stored.UserID != 1 {
			return fmt.Errorf("update sees %+v, want the stored blog", stored)
		}
		stored.Title, stored.Content, stored.Images, stored.Rating = "final", "new content", []string{"/a.jpg"}, 4
		return nil
	})
	if err != nil || updated.Title != "final" || updated.Content != "new content" || !slices.Equal(updated.Images, []string{"/a.jpg"}) || updated.Rating != 4 {
		t.Fatalf("updated %+v, %v", updated, err)
	}
	if got, err := s.Blog(ctx, b.ID); err != nil || got.Title != "final" || got.Rating != 4 {
		t.Fatalf("read back after the update %+v, %v", got, err)
	}
	refused := errors.New("not yours")
	if _, err := s.UpdateBlog(ctx, b.ID, func(*domain.Blog) error { return refused }); !errors.Is(err, refused) {
		t.Fatalf("an update that fails: %v, want its error", err)
	}
	if _, err := s.UpdateBlog(ctx, b.ID, func(stored *domain.Blog) error {
		stored.Images = []string{"a,b"}
		return nil
	}); !errors.Is(err, domain.ErrBadInput) {
		t.Fatalf("an update with a comma in an image: %v, want BAD_USER_INPUT", err)
	}
	if got, _ := s.Blog(ctx, b.ID); got.Title != "final" || !slices.Equal(got.Images, []string{"/a.jpg"}) {
		t.Fatalf("a refused update changed the blog to %+v", got)
	}
	if deleted, err := s.DeleteBlog(ctx, b.ID); err != nil || !deleted {
		t.Fatalf("delete = %v, %v", deleted, err)
	}
	if deleted, err := s.DeleteBlog(ctx, b.ID); err != nil || deleted {
		t.Fatalf("delete again = %v, %v; want false", deleted, err)
	}
	if _, err := s.Blog(ctx, b.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("a deleted blog: %v, want NOT_FOUND", err)
	}
	if _, err := s.UpdateBlog(ctx, b.ID, func(*domain.Blog) error { return nil }); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("updating a deleted blog: %v, want NOT_FOUND", err)
	}
}
