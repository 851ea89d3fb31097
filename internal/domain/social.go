package domain

import "time"

// Blog is a note a user writes about a shop ("探店笔记").
type Blog struct {
	ID     int64
	ShopID int64
	// UserID is the author.
	UserID  int64
	Title   string
	Content string
	// Images are image paths or URLs, in display order.
	Images []string
	// Liked counts the likes; who liked lives in Redis.
	Liked    int
	Comments int
	// Rating is the blog's 1–5 star rating of its shop; 0 when it gives none.
	Rating    int
	CreatedAt time.Time
	UpdatedAt time.Time
}

// BlogStamp is a blog's id and publication time, all a feed needs to place it.
type BlogStamp struct {
	ID        int64
	CreatedAt time.Time
}

// Follow is one user following another.
type Follow struct {
	ID int64
	// UserID is the follower.
	UserID int64
	// FollowUserID is the user being followed.
	FollowUserID int64
	CreatedAt    time.Time
}

// Comment is a comment on a blog, or a reply to one. Replies are one level deep: a reply
// to a reply hangs under the same top-level comment (ParentID) and names the comment it
// answers (ReplyToID) and that comment's author (ReplyToUserID).
type Comment struct {
	ID     int64
	BlogID int64
	// UserID is the author.
	UserID int64
	// ParentID is the top-level comment a reply hangs under; 0 for a top-level comment.
	ParentID int64
	// ReplyToID is the comment a reply answers (its top-level comment or another reply
	// under it); 0 for none. It stays when that comment is deleted.
	ReplyToID int64
	// ReplyToUserID is the author of the comment a reply answers; 0 for none.
	ReplyToUserID int64
	Content       string
	// Replies counts a top-level comment's replies.
	Replies   int
	CreatedAt time.Time
}
