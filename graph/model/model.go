// Package model holds the GraphQL types. models_gen.go is generated; hand-written types
// (those gqlgen should bind to rather than generate) live here.
package model

import "time"

// Comment is a comment on a note, or a reply to one. It is written by hand, not
// generated, to carry ReplyToUserID: the replyToUser edge is loaded from it (the
// comment answered may be gone). Author, ReplyTo, ReplyToUser and Replies are edges
// their resolvers load.
type Comment struct {
	ID       string `json:"id"`
	BlogID   string `json:"blogId"`
	AuthorID string `json:"authorId"`
	Content  string `json:"content"`
	// ParentID is the top-level comment a reply hangs under; nil for a top-level comment.
	ParentID *string `json:"parentId,omitempty"`
	// ReplyToID is the comment a reply answers; nil for a top-level comment.
	ReplyToID *string `json:"replyToId,omitempty"`
	// ReplyToUserID is the author of the comment a reply answers; nil for a top-level
	// comment.
	ReplyToUserID *string   `json:"-"`
	ReplyCount    int       `json:"replyCount"`
	CreatedAt     time.Time `json:"createdAt"`
}

// WaitlistEntry is a user's place in a sale's waitlist; its voucher is an edge its
// resolver loads.
type WaitlistEntry struct {
	ID        string         `json:"id"`
	VoucherID string         `json:"voucherId"`
	Status    WaitlistStatus `json:"status"`
	JoinedAt  time.Time      `json:"joinedAt"`
	Position  *int           `json:"position,omitempty"`
	Offer     *WaitlistOffer `json:"offer,omitempty"`
}

// Favorite is a shop or a voucher a user marked. It is written by hand to carry what it
// marks: its target, shop and voucher are edges their resolvers load.
type Favorite struct {
	ID        string    `json:"id"`
	CreatedAt time.Time `json:"createdAt"`
	// VoucherMark tells a voucher's favourite from a shop's; TargetID is the voucher's or
	// the shop's id.
	VoucherMark bool   `json:"-"`
	TargetID    string `json:"-"`
}
