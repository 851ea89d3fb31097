package follows

import (
	"context"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

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

// Users reads user accounts: who is followed, who follows in common.
type Users interface {
	// User returns one user, or domain.ErrNotFound.
	User(ctx context.Context, id int64) (domain.User, error)
	// UsersByIDs returns the users with those ids in the order of ids, leaving out
	// unknown ones.
	UsersByIDs(ctx context.Context, ids []int64) ([]domain.User, error)
}

// Blogs reads the blogs that feeds hold.
type Blogs interface {
	// BlogsByIDs returns the blogs with those ids in the order of ids, leaving out
	// unknown ones.
	BlogsByIDs(ctx context.Context, ids []int64) ([]domain.Blog, error)
	// BlogStamps returns the ids and times of a user's newest limit blogs, newest first.
	BlogStamps(ctx context.Context, userID int64, limit int) ([]domain.BlogStamp, error)
}

// Notifier hands what happened to the users' inboxes, which write the notifications
// later: Notify never waits for them and never fails the action that happened.
type Notifier interface {
	Notify(ctx context.Context, e domain.NotificationEvent)
}
