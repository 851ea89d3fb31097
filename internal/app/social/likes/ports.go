package likes

import (
	"context"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// LikeChange is what one like or unlike did, as the relational store decided it.
type LikeChange struct {
	// Changed is whether it changed anything: false for a like of a blog the user liked
	// already, or an unlike of one they did not like.
	Changed bool
	// Liked is whether the user likes the blog now.
	Liked bool
	// Count is how many users like the blog now.
	Count int
	// Version numbers the blog's like changes: a change made the blog's likes the
	// version Version, one more than the change before it; a call that changed nothing
	// reports the version it found.
	Version int64
	// At is when the user liked the blog (for a like).
	At time.Time
}

// Like is one user's like of a blog.
type Like struct {
	UserID int64
	At     time.Time
}

// BlogLikes is every like of a blog as of one version of its likes.
type BlogLikes struct {
	Version int64
	// Likes are earliest first.
	Likes []Like
}

// LikeStore keeps likes in the relational store: the source of truth that the Redis
// like sets are rebuilt from.
type LikeStore interface {
	// SetLike makes the user like the blog as of the given time (like), or not (!like),
	// and stores the blog's new count counted from the likes, in one transaction that
	// concurrent changes of the blog wait for, so the count never drifts. When the user
	// already is where the call asks, it stores nothing and reports Changed false (a
	// repeated like keeps the first one's time). domain.ErrNotFound for an unknown blog.
	SetLike(ctx context.Context, blogID, userID int64, like bool, at time.Time) (LikeChange, error)
	// BlogLikes returns all likes of a blog with the version they are as of, read in one
	// consistent snapshot. An unknown blog has none.
	BlogLikes(ctx context.Context, blogID int64) (BlogLikes, error)
	// Import adds likes the store lacks (keeping those it has) and recounts the blog,
	// as one change. It returns how many it added; domain.ErrNotFound for an unknown
	// blog.
	Import(ctx context.Context, blogID int64, likes []Like) (int, error)
}

// Likes caches each blog's likers in Redis, in the order they liked, with the version of
// the blog's likes they hold. A blog that is not cached (never read yet, or Redis lost
// it) is loaded from the LikeStore; "not cached" is told apart from "no likes".
type Likes interface {
	// Apply records change, made by userID, when the cache holds the version just before
	// it. It reports false when the blog is not cached, or the cache misses a change in
	// between: the caller then loads the blog's likes.
	Apply(ctx context.Context, blogID, userID int64, change LikeChange) (bool, error)
	// Load caches likes unless the cache holds their version or a newer one already.
	Load(ctx context.Context, blogID int64, likes BlogLikes) error
	// LikedBy reports, for each of blogIDs in order, whether userID likes it, and
	// whether the blog is cached at all (when not, liked is false and means nothing).
	LikedBy(ctx context.Context, userID int64, blogIDs []int64) (liked, cached []bool, err error)
	// Likers returns the ids of a blog's first limit likers, earliest first, and
	// whether the blog is cached.
	Likers(ctx context.Context, blogID int64, limit int) ([]int64, bool, error)
	// Forget drops a blog from the cache, so the next read loads it.
	Forget(ctx context.Context, blogID int64) error
	// Legacy calls fn with the likes of every blog Redis holds likers of without a
	// version: like sets written before the store kept likes. Once fn accepted them all,
	// later calls find none without looking.
	Legacy(ctx context.Context, fn func(blogID int64, likes []Like) error) error
}

// Blogs reads the blog a like is of.
type Blogs interface {
	// Blog returns one blog, or domain.ErrNotFound.
	Blog(ctx context.Context, id int64) (domain.Blog, error)
}

// Users reads the likers' accounts.
type Users interface {
	// UsersByIDs returns the users with those ids in the order of ids, leaving out
	// unknown ones.
	UsersByIDs(ctx context.Context, ids []int64) ([]domain.User, error)
}

// Notifier hands what happened to the users' inboxes, which write the notifications
// later: Notify never waits for them and never fails the action that happened.
type Notifier interface {
	Notify(ctx context.Context, e domain.NotificationEvent)
}
