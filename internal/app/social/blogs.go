package social

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dealspot/dealspot/internal/domain"
)

// BlogInput is a new blog.
type BlogInput struct {
	ShopID  int64
	Title   string
	Content string
	Images  []string
	// Rating is a 1–5 star rating of the shop; 0 gives none.
	Rating int
}

// BlogView is a blog as a reader sees it.
type BlogView struct {
	Blog domain.Blog
	// LikedByMe is whether the reader likes the blog; false for anonymous readers.
	LikedByMe bool
}

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

// Blog field limits. The title is also bounded in bytes by its column.
const (
	maxTitleRunes   = 80
	maxTitleBytes   = 255
	maxContentRunes = 5000
	maxImages       = 9
	maxImageRunes   = 255
	maxImagesBytes  = 2048
)

// BlogCommands publish blogs.
type BlogCommands struct {
	blogs         Blogs
	shops         Shops
	follows       Follows
	inboxes       Inboxes
	fanout        FanoutQueue
	hydrate       *hydrator
	syncFanoutMax int
	now           func() time.Time
	log           *slog.Logger
	limits        *postLimits
	// shopCache is told when a shop's reviews changed (nil: nothing caches shops).
	shopCache ShopInvalidator
}

// CreateBlog publishes a blog by authorID and pushes it to the author's followers:
// inline for a few followers, through the fan-out queue for many. A failed push does not
// fail the call (the blog exists); it is logged. Errors: BAD_USER_INPUT.
func (c *BlogCommands) CreateBlog(ctx context.Context, authorID int64, in BlogInput) (BlogView, error) {
	b, err := validBlog(in)
	if err != nil {
		return BlogView{}, err
	}
	shops, err := c.shops.ShopsByIDs(ctx, []int64{b.ShopID})
	if err != nil {
		return BlogView{}, fmt.Errorf("look up shop of new blog: %w", err)
	}
	if len(shops) == 0 {
		return BlogView{}, domain.Errorf(domain.CodeBadUserInput, "shopId: no shop %d", b.ShopID)
	}
	if err := c.limits.allow(ctx, "note", authorID); err != nil {
		return BlogView{}, err
	}
	b.UserID = authorID
	// Feed scores are milliseconds: the stored time says the same.
	b.CreatedAt = c.now().Truncate(time.Millisecond)
	created, err := c.blogs.CreateBlog(ctx, b)
	if err != nil {
		return BlogView{}, fmt.Errorf("create blog: %w", err)
	}
	c.publish(ctx, created)
	c.shopReviewed(ctx, created.ShopID)
	views, err := c.hydrate.views(ctx, authorID, []domain.Blog{created}, nil)
	if err != nil {
		return BlogView{}, err
	}
	return views[0], nil
}

func validBlog(in BlogInput) (domain.Blog, error) {
	if in.ShopID <= 0 {
		return domain.Blog{}, domain.Errorf(domain.CodeBadUserInput, "shopId must be a positive id")
	}
	title := strings.TrimSpace(in.Title)
	content := strings.TrimSpace(in.Content)
	switch {
	case title == "":
		return domain.Blog{}, domain.Errorf(domain.CodeBadUserInput, "title must not be empty")
	case utf8.RuneCountInString(title) > maxTitleRunes || len(title) > maxTitleBytes:
		return domain.Blog{}, domain.Errorf(domain.CodeBadUserInput, "title must be at most %d characters", maxTitleRunes)
	case !utf8.ValidString(title) || !utf8.ValidString(content):
		return domain.Blog{}, domain.Errorf(domain.CodeBadUserInput, "title and content must be valid UTF-8")
	case content == "":
		return domain.Blog{}, domain.Errorf(domain.CodeBadUserInput, "content must not be empty")
	case utf8.RuneCountInString(content) > maxContentRunes:
		return domain.Blog{}, domain.Errorf(domain.CodeBadUserInput, "content must be at most %d characters", maxContentRunes)
	case len(in.Images) > maxImages:
		return domain.Blog{}, domain.Errorf(domain.CodeBadUserInput, "at most %d images", maxImages)
	}
	if err := domain.CheckText("title", title, false); err != nil {
		return domain.Blog{}, err
	}
	if err := domain.CheckText("content", content, true); err != nil {
		return domain.Blog{}, err
	}
	images := make([]string, 0, len(in.Images))
	total := 0
	for _, img := range in.Images {
		img = strings.TrimSpace(img)
		switch {
		case img == "":
			return domain.Blog{}, domain.Errorf(domain.CodeBadUserInput, "images must not be empty strings")
		case strings.ContainsAny(img, ",\n\r\t ") || !utf8.ValidString(img):
			return domain.Blog{}, domain.Errorf(domain.CodeBadUserInput, "an image path must not contain commas or spaces")
		case utf8.RuneCountInString(img) > maxImageRunes:
			return domain.Blog{}, domain.Errorf(domain.CodeBadUserInput, "an image path must be at most %d characters", maxImageRunes)
		case !ValidImage(img):
			return domain.Blog{}, domain.Errorf(domain.CodeBadUserInput, "an image must be an https URL or an uploaded image's /media/ path")
		}
		total += len(img) + 1
		images = append(images, img)
	}
	if total > maxImagesBytes {
		return domain.Blog{}, domain.Errorf(domain.CodeBadUserInput, "image paths must be at most %d bytes together", maxImagesBytes)
	}
	if in.Rating < 0 || in.Rating > 5 {
		return domain.Blog{}, domain.Errorf(domain.CodeBadUserInput, "rating: 1 to 5 stars, or none")
	}
	return domain.Blog{ShopID: in.ShopID, Title: title, Content: content, Images: images, Rating: in.Rating}, nil
}

// BlogQueries read blogs.
type BlogQueries struct {
	blogs   Blogs
	hydrate *hydrator
	visits  *Visits
	pages   domain.PageLimits
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
	views, err := q.hydrate.views(ctx, viewer.UserID, []domain.Blog{b}, nil)
	if err != nil {
		return BlogView{}, false, err
	}
	return views[0], true, nil
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
	m, err := q.blogs.FirstBlogs(ctx, byShop, unique(ids), size+1)
	if err != nil {
		return nil, err
	}
	var all []domain.Blog
	for _, id := range unique(ids) {
		all = append(all, m[id]...)
	}
	views, err := q.hydrate.views(ctx, viewerID, all, nil)
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
	views, err := q.hydrate.views(ctx, viewerID, blogs, nil)
	if err != nil {
		return BlogPage{}, err
	}
	page.Blogs = views
	return page, nil
}

// hydrator turns blogs into what readers see. A blog's author and shop are edges the
// transport loads when a reader asks for them (in batches), not here.
type hydrator struct {
	likes *likeLoader
}

// views adds the viewer's likes to blogs, with one batched look-up. liked, when not
// nil, is already known for every blog.
func (h *hydrator) views(ctx context.Context, viewerID int64, blogs []domain.Blog, liked []bool) ([]BlogView, error) {
	if len(blogs) == 0 {
		return nil, nil
	}
	if liked == nil && viewerID > 0 {
		ids := make([]int64, len(blogs))
		for i, b := range blogs {
			ids[i] = b.ID
		}
		var err error
		if liked, err = h.likes.likedBy(ctx, viewerID, ids); err != nil {
			return nil, fmt.Errorf("load likes of viewer: %w", err)
		}
	}
	views := make([]BlogView, len(blogs))
	for i, b := range blogs {
		views[i] = BlogView{Blog: b}
		if i < len(liked) {
			views[i].LikedByMe = liked[i]
		}
	}
	return views, nil
}

// unique returns ids without repeats, in first-seen order.
func unique(ids []int64) []int64 {
	seen := make(map[int64]bool, len(ids))
	out := make([]int64, 0, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// publish pushes a new blog into its author's followers' inboxes. Few followers are
// pushed to at once; many are left to the fan-out queue. Failures are logged: the blog
// exists either way.
func (c *BlogCommands) publish(ctx context.Context, b domain.Blog) {
	followers, err := c.follows.FollowerIDs(ctx, b.UserID, 0, c.syncFanoutMax+1)
	if err == nil && len(followers) == 0 {
		return
	}
	if err == nil && len(followers) <= c.syncFanoutMax {
		err = c.inboxes.Push(ctx, followers, FeedEntry{BlogID: b.ID, Score: b.CreatedAt.UnixMilli()})
		if err == nil {
			return
		}
	}
	if err != nil {
		c.log.Warn("cannot push new blog to followers; queueing the fan-out", slog.Int64("blog_id", b.ID), slog.Any("error", err))
	}
	if err := c.fanout.Enqueue(ctx, FanoutJob{BlogID: b.ID, AuthorID: b.UserID, At: b.CreatedAt}); err != nil {
		c.log.Error("cannot queue the fan-out of a new blog; followers will not see it in their feeds",
			slog.Int64("blog_id", b.ID), slog.Any("error", err))
	}
}

// BlogUpdate changes a blog: nil fields stay as they are.
type BlogUpdate struct {
	Title   *string
	Content *string
	Images  *[]string
	// Rating changes the rating (0 takes it back).
	Rating *int
}

// UpdateBlog changes a blog's title, content or images, for its author. Errors:
// NOT_FOUND, FORBIDDEN (someone else's blog), BAD_USER_INPUT (as CreateBlog).
func (c *BlogCommands) UpdateBlog(ctx context.Context, a domain.Actor, id int64, in BlogUpdate) (BlogView, error) {
	if a.UserID <= 0 {
		return BlogView{}, domain.Errorf(domain.CodeUnauthenticated, "log in first")
	}
	b, err := c.blogs.UpdateBlog(ctx, id, func(b *domain.Blog) error {
		if b.UserID != a.UserID {
			return domain.Errorf(domain.CodeForbidden, "only its author edits a note")
		}
		next := BlogInput{ShopID: b.ShopID, Title: b.Title, Content: b.Content, Images: b.Images, Rating: b.Rating}
		if in.Rating != nil {
			next.Rating = *in.Rating
		}
		if in.Title != nil {
			next.Title = *in.Title
		}
		if in.Content != nil {
			next.Content = *in.Content
		}
		if in.Images != nil {
			next.Images = *in.Images
		}
		valid, err := validBlog(next)
		if err != nil {
			return err
		}
		b.Title, b.Content, b.Images, b.Rating = valid.Title, valid.Content, valid.Images, valid.Rating
		return nil
	})
	if errors.Is(err, domain.ErrNotFound) {
		return BlogView{}, domain.Errorf(domain.CodeNotFound, "no note %d", id)
	}
	if err != nil {
		return BlogView{}, err
	}
	if in.Rating != nil {
		c.shopReviewed(ctx, b.ShopID)
	}
	views, err := c.hydrate.views(ctx, a.UserID, []domain.Blog{b}, nil)
	if err != nil {
		return BlogView{}, err
	}
	return views[0], nil
}

// shopReviewed drops the cached copies of a shop whose reviews changed (its score and
// review count).
func (c *BlogCommands) shopReviewed(ctx context.Context, shopID int64) {
	if c.shopCache == nil {
		return
	}
	if err := c.shopCache.ShopChanged(ctx, shopID); err != nil {
		c.log.Warn("a shop's cached score is served until it expires", slog.Int64("shop_id", shopID), slog.Any("error", err))
	}
}

// DeleteBlog deletes a blog with its comments and likes, for its author or an ADMIN.
// It reports false when the blog was gone. Followers' feeds skip it from then on.
// Errors: FORBIDDEN.
func (c *BlogCommands) DeleteBlog(ctx context.Context, a domain.Actor, id int64) (bool, error) {
	if a.UserID <= 0 && a != domain.Operator {
		return false, domain.Errorf(domain.CodeUnauthenticated, "log in first")
	}
	b, err := c.blogs.Blog(ctx, id)
	if errors.Is(err, domain.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if b.UserID != a.UserID && a.Role != domain.RoleAdmin {
		return false, domain.Errorf(domain.CodeForbidden, "only its author or an administrator deletes a note")
	}
	deleted, err := c.blogs.DeleteBlog(ctx, id)
	if err != nil {
		return false, err
	}
	c.shopReviewed(ctx, b.ShopID)
	if err := c.hydrate.likes.cache.Forget(ctx, id); err != nil {
		c.log.Warn("deleted note's likers stay cached until they expire", "blog_id", id, "error", err)
	}
	return deleted, nil
}
