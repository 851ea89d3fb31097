package notes

import (
	"context"
	"fmt"

	"github.com/dealspot/dealspot/internal/domain"
)

// BlogView is a blog as a reader sees it.
type BlogView struct {
	Blog domain.Blog
	// LikedByMe is whether the reader likes the blog; false for anonymous readers.
	LikedByMe bool
}

// Views turns blogs into what readers see: the notes' own pages and the follows
// package's feed. A blog's author and shop are edges the transport loads when a reader
// asks for them (in batches), not here.
type Views struct {
	likes Likes
}

// NewViews returns Views that look readers' likes up in likes.
func NewViews(likes Likes) *Views { return &Views{likes: likes} }

// Of adds the viewer's likes to blogs, with one batched look-up (none for anonymous
// readers).
func (v *Views) Of(ctx context.Context, viewerID int64, blogs []domain.Blog) ([]BlogView, error) {
	if len(blogs) == 0 {
		return nil, nil
	}
	var liked []bool
	if viewerID > 0 {
		ids := make([]int64, len(blogs))
		for i, b := range blogs {
			ids[i] = b.ID
		}
		var err error
		if liked, err = v.likes.LikedBy(ctx, viewerID, ids); err != nil {
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
