// Package social holds the community side of Dealspot: notes ("blogs") about shops,
// likes, follows, the feed of followed authors' notes, daily sign-in and unique-visitor
// counts. The relational store keeps every fact a user created — blogs, likes, follows,
// sign-ins — and Redis caches each on the structure that fits it; visitor counts are
// derived analytics and live in Redis only.
package social

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
	// BlogCounts counts the blogs of each of userIDs with one query (zero counts are
	// left out).
	BlogCounts(ctx context.Context, userIDs []int64) (map[int64]int, error)
	// BlogsOfShop returns up to limit blogs about a shop with id < before (0: from the
	// newest), newest first.
	BlogsOfShop(ctx context.Context, shopID, before int64, limit int) ([]domain.Blog, error)
	// BlogStamps returns the ids and times of a user's newest limit blogs, newest first.
	BlogStamps(ctx context.Context, userID int64, limit int) ([]domain.BlogStamp, error)
	// HotBlogs returns up to limit blogs ordered by likes, then id, both descending,
	// strictly after the position after (nil: from the top).
	HotBlogs(ctx context.Context, after *HotPosition, limit int) ([]domain.Blog, error)
	// SetLiked stores a blog's like count as of the like change numbered seq, unless a
	// newer change is stored already. It reports whether it wrote.
	SetLiked(ctx context.Context, blogID int64, count int, seq int64) (bool, error)
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

// Follows keeps follow relations in the relational store, the source of truth that the
// Redis mirror is rebuilt from.
type Follows interface {
	// Follow records that userID follows targetID; false when it already held.
	Follow(ctx context.Context, userID, targetID int64) (bool, error)
	// Unfollow removes that relation; false when it did not hold.
	Unfollow(ctx context.Context, userID, targetID int64) (bool, error)
	// FollowerIDs returns up to limit ids of targetID's followers greater than after,
	// ascending.
	FollowerIDs(ctx context.Context, targetID, after int64, limit int) ([]int64, error)
	// Follows returns up to limit relations with id > after, ordered by id.
	Follows(ctx context.Context, after int64, limit int) ([]domain.Follow, error)
	// FollowingIDs returns up to limit ids greater than after of the users userID
	// follows, ascending.
	FollowingIDs(ctx context.Context, userID, after int64, limit int) ([]int64, error)
	// Followers returns up to limit relations to targetID with id < before (0: from the
	// newest), newest first; Following those from userID.
	Followers(ctx context.Context, targetID, before int64, limit int) ([]domain.Follow, error)
	Following(ctx context.Context, userID, before int64, limit int) ([]domain.Follow, error)
	// FollowerCounts and FollowingCounts count, with one query each, the followers and
	// the followings of each of ids (zero counts are left out).
	FollowerCounts(ctx context.Context, ids []int64) (map[int64]int, error)
	FollowingCounts(ctx context.Context, ids []int64) (map[int64]int, error)
}

// Users reads user accounts.
type Users interface {
	// User returns one user, or domain.ErrNotFound.
	User(ctx context.Context, id int64) (domain.User, error)
	// UsersByIDs returns the users with those ids in the order of ids, leaving out
	// unknown ones.
	UsersByIDs(ctx context.Context, ids []int64) ([]domain.User, error)
	// UpdateProfile stores u's nickname, icon and profile and returns the user as
	// stored; domain.ErrNotFound for an unknown id.
	UpdateProfile(ctx context.Context, u domain.User) (domain.User, error)
}

// ShopInvalidator drops cached copies of a shop after its reviews changed.
type ShopInvalidator interface {
	ShopChanged(ctx context.Context, id int64) error
}

// Shops reads shops.
type Shops interface {
	// ShopsByIDs returns the shops with those ids in the order of ids, leaving out
	// unknown ones.
	ShopsByIDs(ctx context.Context, ids []int64) ([]domain.Shop, error)
}

// LikeChange is what one like or unlike did, as the relational store decided it.
type LikeChange struct {
	// Liked is whether the user likes the blog now.
	Liked bool
	// Count is how many users like the blog now.
	Count int
	// Version numbers the blog's like changes: this change made the blog's likes the
	// version Version, one more than the change before it.
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
	// Toggle likes the blog for the user at the given time, or takes the like back when
	// the user already likes it, and stores the blog's new count counted from the likes,
	// in one transaction that concurrent toggles of the blog wait for: toggles of one user
	// alternate and the count never drifts. domain.ErrNotFound for an unknown blog.
	Toggle(ctx context.Context, blogID, userID int64, at time.Time) (LikeChange, error)
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

// FollowMirror mirrors each user's follows in Redis, for fast membership tests and set
// intersections.
type FollowMirror interface {
	// Add records that userID follows targetID.
	Add(ctx context.Context, userID, targetID int64) error
	// Remove forgets it.
	Remove(ctx context.Context, userID, targetID int64) error
	// Contains reports whether userID follows targetID.
	Contains(ctx context.Context, userID, targetID int64) (bool, error)
	// FollowsMany reports, for each of targetIDs in order, whether userID follows it,
	// in one round trip.
	FollowsMany(ctx context.Context, userID int64, targetIDs []int64) ([]bool, error)
	// Common returns the ids both a and b follow.
	Common(ctx context.Context, a, b int64) ([]int64, error)
	// Loaded reports whether the mirror was filled from the database (false on an empty
	// Redis, or after Redis lost its data).
	Loaded(ctx context.Context) (bool, error)
	// AddAll records many relations.
	AddAll(ctx context.Context, follows []domain.Follow) error
	// MarkLoaded records that the mirror now holds the database's relations.
	MarkLoaded(ctx context.Context) error
}

// FeedEntry is one blog in a user's inbox. Score is its publication time in
// milliseconds since the Unix epoch.
type FeedEntry struct {
	BlogID int64
	Score  int64
}

// Inboxes keeps each user's feed inbox: the ids of blogs pushed to them, newest first,
// capped in size (the oldest fall out).
type Inboxes interface {
	// Push puts e into the inbox of every user in userIDs.
	Push(ctx context.Context, userIDs []int64, e FeedEntry) error
	// Add puts entries into one user's inbox.
	Add(ctx context.Context, userID int64, entries []FeedEntry) error
	// Remove takes blogs out of one user's inbox.
	Remove(ctx context.Context, userID int64, blogIDs []int64) error
	// Page returns up to limit entries with score ≤ max (nil: no bound), newest first,
	// after skipping the first offset of them. Entries of equal score come in a fixed
	// order: higher blog id first.
	Page(ctx context.Context, userID int64, max *int64, offset, limit int) ([]FeedEntry, error)
	// Filled reports whether the user's inbox was filled from the database since Redis
	// last lost its data: false for an inbox lost with Redis (or never filled), whatever
	// fan-out pushed into it since.
	Filled(ctx context.Context, userID int64) (bool, error)
	// BeginRefill starts refilling the user's inbox from the database and returns a
	// token for Refill.
	BeginRefill(ctx context.Context, userID int64) (string, error)
	// Refill puts entries into the user's inbox and marks it filled, unless Redis lost
	// its data (or another refill began) since BeginRefill returned token; it reports
	// whether it marked the inbox.
	Refill(ctx context.Context, userID int64, token string, entries []FeedEntry) (bool, error)
}

// FanoutJob asks for a blog to be pushed to every follower of its author.
type FanoutJob struct {
	BlogID   int64
	AuthorID int64
	At       time.Time
}

// FanoutQueue carries fan-out jobs from the node that published a blog to whichever node
// is free, so publishing stays fast for authors with many followers.
type FanoutQueue interface {
	// Enqueue hands job over; an error means it may not be enqueued.
	Enqueue(ctx context.Context, job FanoutJob) error
	// Consume calls handle for every job until ctx ends. A job whose handle fails is
	// delivered again later: at least once, so handle must be idempotent.
	Consume(ctx context.Context, handle func(ctx context.Context, job FanoutJob) error) error
}

// SignInStore keeps each user's sign-ins, one row per user per month, in the relational
// store: the source of truth that the Redis bitmaps are rebuilt from.
type SignInStore interface {
	// Sign adds the calendar day of day (its year, month and day) to the user's month in
	// one statement and returns the month's signed days after it, as a mask: bit d-1
	// set for day d.
	Sign(ctx context.Context, userID int64, day time.Time) (uint32, error)
	// Month returns the signed days of the calendar month of month, as a mask (0 when
	// the user never signed in that month).
	Month(ctx context.Context, userID int64, month time.Time) (uint32, error)
	// Merge adds the days of mask to the user's month of month.
	Merge(ctx context.Context, userID int64, month time.Time, mask uint32) error
}

// SignIns caches one bitmap per user per month in Redis. Signed days are only ever
// added, so caching a mask merges it with what is cached (a bitwise or): writes and
// loads may land in any order.
type SignIns interface {
	// Merge adds the days of mask to the cached month of month, caching the month when it
	// was not. A month cached with no days expires after a while, so months nobody signed
	// in do not stay in Redis.
	Merge(ctx context.Context, userID int64, month time.Time, mask uint32) error
	// Month returns the cached days of the calendar month of month, and whether the
	// month is cached at all.
	Month(ctx context.Context, userID int64, month time.Time) (uint32, bool, error)
	// Legacy calls fn with every month Redis holds as a bitmap that never expires:
	// sign-ins written before the store kept them. A month fn accepted becomes a cached
	// month like any other; once fn accepted them all, later calls find none without
	// looking.
	Legacy(ctx context.Context, fn func(userID int64, month time.Time, mask uint32) error) error
}

// Visitors counts distinct visitors per calendar day in Redis HyperLogLogs, site-wide
// and per shop.
type Visitors interface {
	// Record counts each of visitors on the calendar day of day, site-wide (shopID 0) or
	// for one shop.
	Record(ctx context.Context, day time.Time, shopID int64, visitors []string) error
	// Count estimates the distinct visitors over all of days (calendar days), site-wide
	// (shopID 0) or of one shop.
	Count(ctx context.Context, days []time.Time, shopID int64) (int64, error)
}
