package notes

import (
	"context"
	"errors"
	"fmt"

	"github.com/dealspot/dealspot/internal/app/batchread"
	"github.com/dealspot/dealspot/internal/domain"
)

// BlogPage is one page of blogs.
type BlogPage struct {
	Blogs       []BlogView
	HasNextPage bool
}

// Viewer is who reads: a user (0 for anonymous) and the address of the client, which
// counts them as a visitor when they are not logged in.
type Viewer struct {
	UserID   int64
	ClientIP string
}

// BlogQueries read blogs.
type BlogQueries struct {
	blogs  Blogs
	views  *Views
	visits ViewCounter
	pages  domain.PageLimits
}

// Blog returns one blog as viewer sees it, and counts the view; found is false for an
// unknown id.
func (q *BlogQueries) Blog(ctx context.Context, viewer Viewer, id int64) (view BlogView, found bool, err error) {
	if id <= 0 {
		return BlogView{}, false, nil
	}
	b, err := q.blogs.Blog(ctx, id)
	if errors.Is(err, domain.ErrNotFound) {
		return BlogView{}, false, nil
	}
	if err != nil {
		return BlogView{}, false, fmt.Errorf("load blog %d: %w", id, err)
	}
	q.visits.CountView(ctx, viewer.UserID, viewer.ClientIP, 0)
	views, err := q.views.Of(ctx, viewer.UserID, []domain.Blog{b})
	if err != nil {
		return BlogView{}, false, err
	}
	return views[0], true, nil
}

// BlogViews returns the blogs with those ids as viewerID sees them, in the order of
// ids, leaving out unknown ones; it counts no view.
func (q *BlogQueries) BlogViews(ctx context.Context, viewerID int64, ids []int64) ([]BlogView, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	blogs, err := q.blogs.BlogsByIDs(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("load %d blogs: %w", len(ids), err)
	}
	return q.views.Of(ctx, viewerID, blogs)
}

// HotBlogs pages through blogs by likes, most liked first (ties: newer first). Likes
// change while a reader pages, so a blog can move across the page boundary; each page
// is still well ordered. Errors: BAD_USER_INPUT for a bad page size.
func (q *BlogQueries) HotBlogs(ctx context.Context, viewerID int64, first int, after *HotPosition) (BlogPage, error) {
	size, err := q.pages.Size(first)
	if err != nil {
		return BlogPage{}, err
	}
	if after != nil && (after.Liked < 0 || after.ID <= 0) {
		return BlogPage{}, domain.Errorf(domain.CodeBadUserInput, "after: not a valid cursor")
	}
	blogs, err := q.blogs.HotBlogs(ctx, after, size+1)
	if err != nil {
		return BlogPage{}, fmt.Errorf("list hot blogs: %w", err)
	}
	return q.page(ctx, viewerID, blogs, size)
}

// BlogsOfUser pages through a user's blogs, newest first, from before (a blog id; 0:
// from the newest). Errors: BAD_USER_INPUT for a bad page size.
func (q *BlogQueries) BlogsOfUser(ctx context.Context, viewerID, userID int64, first int, before int64) (BlogPage, error) {
	size, err := q.pages.Size(first)
	if err != nil {
		return BlogPage{}, err
	}
	if userID <= 0 || before < 0 {
		return BlogPage{}, domain.Errorf(domain.CodeBadUserInput, "ids must be positive")
	}
	blogs, err := q.blogs.BlogsOfUser(ctx, userID, before, size+1)
	if err != nil {
		return BlogPage{}, fmt.Errorf("list blogs of user %d: %w", userID, err)
	}
	return q.page(ctx, viewerID, blogs, size)
}

// BlogsOfShop pages through the blogs about a shop, newest first.
func (q *BlogQueries) BlogsOfShop(ctx context.Context, viewerID, shopID int64, first int, before int64) (BlogPage, error) {
	size, err := q.pages.Size(first)
	if err != nil {
		return BlogPage{}, err
	}
	if shopID <= 0 || before < 0 {
		return BlogPage{}, domain.Errorf(domain.CodeBadUserInput, "ids must be positive")
	}
	blogs, err := q.blogs.BlogsOfShop(ctx, shopID, before, size+1)
	if err != nil {
		return BlogPage{}, fmt.Errorf("list blogs of shop %d: %w", shopID, err)
	}
	return q.page(ctx, viewerID, blogs, size)
}

// PageSize is the size of a page asked for with first (the default for 0);
// BAD_USER_INPUT past the largest.
func (q *BlogQueries) PageSize(first int) (int, error) { return q.pages.Size(first) }

// FirstPages returns the first page (first+1 views, so the caller can tell whether more
// follow) of the blogs of each of ids — shops when byShop, else authors — newest first,
// with one query and one look-up of the viewer's likes.
func (q *BlogQueries) FirstPages(ctx context.Context, viewerID int64, byShop bool, ids []int64, first int) (map[int64][]BlogView, error) {
	size, err := q.pages.Size(first)
	if err != nil {
		return nil, err
	}
	m, err := q.blogs.FirstBlogs(ctx, byShop, batchread.UniqueIDs(ids), size+1)
	if err != nil {
		return nil, err
	}
	var all []domain.Blog
	for _, id := range batchread.UniqueIDs(ids) {
		all = append(all, m[id]...)
	}
	views, err := q.views.Of(ctx, viewerID, all)
	if err != nil {
		return nil, err
	}
	out := make(map[int64][]BlogView, len(m))
	for _, v := range views {
		key := v.Blog.UserID
		if byShop {
			key = v.Blog.ShopID
		}
		out[key] = append(out[key], v)
	}
	return out, nil
}

// page turns size+1 rows into a page of size views.
func (q *BlogQueries) page(ctx context.Context, viewerID int64, blogs []domain.Blog, size int) (BlogPage, error) {
	var page BlogPage
	if len(blogs) > size {
		blogs, page.HasNextPage = blogs[:size], true
	}
	views, err := q.views.Of(ctx, viewerID, blogs)
	if err != nil {
		return BlogPage{}, err
	}
	page.Blogs = views
	return page, nil
}
