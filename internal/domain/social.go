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
	Liked     int
	Comments  int
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
