package notes

import (
	"context"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// HotPosition is where a page of hot blogs ends: the last blog's likes and id.
type HotPosition struct {
	Liked int
	ID    int64
}

// Images tells whether a path of this site names an image it serves.
type Images interface {
	// Exists reports whether path (one ValidImage accepts, starting with "/") is an
	// uploaded image or one that comes with the server. Errors are infrastructure
	// failures only.
	Exists(ctx context.Context, path string) (bool, error)
}

// Blogs reads and writes blogs in the relational store.
type Blogs interface {
	// CreateBlog stores a new blog and returns it with its id.
	CreateBlog(ctx context.Context, b domain.Blog) (domain.Blog, error)
	// Blog returns one blog, or domain.ErrNotFound.
	Blog(ctx context.Context, id int64) (domain.Blog, error)
	// BlogsByIDs returns the blogs with those ids in the order of ids, leaving out
	// unknown ones.
	BlogsByIDs(ctx context.Context, ids []int64) ([]domain.Blog, error)
	// BlogsOfUser returns up to limit blogs of a user with id < before (0: from the
	// newest), newest first.
	BlogsOfUser(ctx context.Context, userID, before int64, limit int) ([]domain.Blog, error)
	// UpdateBlog changes a blog in one transaction through update, which sees it as
	// stored; domain.ErrNotFound when it is gone, or what update returns.
	UpdateBlog(ctx context.Context, id int64, update func(*domain.Blog) error) (domain.Blog, error)
	// DeleteBlog deletes a blog with its comments and likes; false when it was gone.
	DeleteBlog(ctx context.Context, id int64) (bool, error)
	// FirstBlogs returns the newest limit blogs of each of ids — shop ids when byShop,
	// else author ids — with one query.
	FirstBlogs(ctx context.Context, byShop bool, ids []int64, limit int) (map[int64][]domain.Blog, error)
	// BlogsOfShop returns up to limit blogs about a shop with id < before (0: from the
	// newest), newest first.
	BlogsOfShop(ctx context.Context, shopID, before int64, limit int) ([]domain.Blog, error)
	// HotBlogs returns up to limit blogs ordered by likes, then id, both descending,
	// strictly after the position after (nil: from the top).
	HotBlogs(ctx context.Context, after *HotPosition, limit int) ([]domain.Blog, error)
}

// Comments keeps comments in the relational store. Each change is one transaction that
// also keeps the blog's comment count (and a top-level comment's reply count) exact.
type Comments interface {
	// CreateComment stores c (a reply when c.ParentID > 0) and adds one to its blog's
	// count, and to its parent's replies. domain.ErrNotFound when the blog is gone, or
	// the parent is gone or not on that blog.
	CreateComment(ctx context.Context, c domain.Comment) (domain.Comment, error)
	// Comment returns one comment, or domain.ErrNotFound.
	Comment(ctx context.Context, id int64) (domain.Comment, error)
	// CommentsByIDs returns the comments with those ids, leaving out unknown ones, with
	// one query.
	CommentsByIDs(ctx context.Context, ids []int64) ([]domain.Comment, error)
	// DeleteComment deletes a comment with its replies, takes them off its blog's count
	// (and its parent's replies) and returns how many it deleted (0: it was gone).
	DeleteComment(ctx context.Context, id int64) (int, error)
	// Comments returns up to limit comments of a blog under parentID (0: the top-level
	// ones), by id ascending after after (0: from the start) or, when newestFirst, by id
	// descending before after (0: from the newest).
	Comments(ctx context.Context, blogID, parentID int64, newestFirst bool, after int64, limit int) ([]domain.Comment, error)
	// FirstComments returns, for each of blogIDs, its first limit top-level comments in
	// the order Comments pages them, with one query.
	FirstComments(ctx context.Context, blogIDs []int64, newestFirst bool, limit int) (map[int64][]domain.Comment, error)
	// FirstReplies returns, for each of parentIDs, its first limit replies, oldest first,
	// with one query.
	FirstReplies(ctx context.Context, parentIDs []int64, limit int) (map[int64][]domain.Comment, error)
}

// Shops reads shops.
type Shops interface {
	// ShopsByIDs returns the shops with those ids in the order of ids, leaving out
	// unknown ones.
	ShopsByIDs(ctx context.Context, ids []int64) ([]domain.Shop, error)
}

// ShopInvalidator drops cached copies of a shop after its reviews changed.
type ShopInvalidator interface {
	ShopChanged(ctx context.Context, id int64) error
}

// RateLimiter counts events per key in a sliding window (the Redis limiter the login
// uses).
type RateLimiter interface {
	// Allow records one event for key if fewer than limit were recorded in the last
	// window; otherwise it records nothing and returns ok=false and how long until an
	// event would be allowed.
	Allow(ctx context.Context, key string, limit int, window time.Duration) (ok bool, retryAfter time.Duration, err error)
}

// Likes tells which blogs a reader likes, through the like cache (the likes package's
// Loader).
type Likes interface {
	// LikedBy reports, for each of blogIDs in order, whether userID likes it.
	LikedBy(ctx context.Context, userID int64, blogIDs []int64) ([]bool, error)
	// Forget drops a blog's cached likes, so the next read loads them.
	Forget(ctx context.Context, blogID int64) error
}

// Publisher pushes a new blog into its author's followers' feeds (the follows
// package's FeedPublisher). It logs its failures: the blog exists either way.
type Publisher interface {
	Publish(ctx context.Context, b domain.Blog)
}

// ViewCounter counts a view of a blog as one of today's visitors (the visitors
// package's Visits). Counting never fails a read, hence no error.
type ViewCounter interface {
	CountView(ctx context.Context, userID int64, clientIP string, shopID int64)
}

// Credits award a note's author credits and take them back (the relational store's
// credit awards).
type Credits interface {
	// Award stores award unless an award with its key (user, reason, reference) was
	// stored or taken back already, adding its amount to the user's credits in the same
	// transaction; it reports whether it did (an award to a user who does not exist is
	// nothing).
	Award(ctx context.Context, award domain.CreditAward) (bool, error)
	// Revoke takes the award with that key back, taking its amount off the user's
	// credits in the same transaction, and keeps the key taken so that a later Award of
	// it adds nothing; it reports whether there was an amount to take back.
	Revoke(ctx context.Context, userID int64, reason domain.CreditReason, ref int64) (bool, error)
}

// Notifier hands what happened to the users' inboxes, which write the notifications
// later: Notify never waits for them and never fails the action that happened.
type Notifier interface {
	Notify(ctx context.Context, e domain.NotificationEvent)
}
