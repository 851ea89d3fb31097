package notes

import (
	"context"
	"errors"
	"fmt"

	"github.com/dealspot/dealspot/internal/domain"
)

// maxCommentRunes bounds a comment's text.
const maxCommentRunes = 1000

// CommentInput is a new comment: on a blog, or a reply to one of its comments.
type CommentInput struct {
	BlogID  int64
	Content string
	// ReplyTo is the comment answered (0: none). A reply to a reply hangs under the
	// same top-level comment.
	ReplyTo int64
}

// CommentCommands write comments.
type CommentCommands struct {
	comments Comments
	// blogs tells whose note a comment is on: its author may delete it.
	blogs    Blogs
	limits   *postLimits
	notifier Notifier
}

// Create publishes a comment by the actor. Errors: BAD_USER_INPUT (empty or too long,
// a reply to another blog's comment), NOT_FOUND (no such blog or comment),
// RATE_LIMITED.
func (c *CommentCommands) Create(ctx context.Context, a domain.Actor, in CommentInput) (domain.Comment, error) {
	if a.UserID <= 0 {
		return domain.Comment{}, domain.Errorf(domain.CodeUnauthenticated, "log in first")
	}
	content, err := ValidText("content", in.Content, maxCommentRunes, true)
	if err != nil {
		return domain.Comment{}, err
	}
	if in.BlogID <= 0 || in.ReplyTo < 0 {
		return domain.Comment{}, domain.Errorf(domain.CodeBadUserInput, "ids must be positive")
	}
	cm := domain.Comment{BlogID: in.BlogID, UserID: a.UserID, Content: content}
	if in.ReplyTo > 0 {
		parent, err := c.comments.Comment(ctx, in.ReplyTo)
		if errors.Is(err, domain.ErrNotFound) {
			return domain.Comment{}, domain.Errorf(domain.CodeNotFound, "no comment %d", in.ReplyTo)
		}
		if err != nil {
			return domain.Comment{}, err
		}
		if parent.BlogID != in.BlogID {
			return domain.Comment{}, domain.Errorf(domain.CodeBadUserInput, "replyTo: comment %d is on another note", in.ReplyTo)
		}
		cm.ParentID, cm.ReplyToID, cm.ReplyToUserID = parent.ID, parent.ID, parent.UserID
		if parent.ParentID > 0 {
			cm.ParentID = parent.ParentID
		}
	}
	if err := c.limits.allow(ctx, "comment", a.UserID); err != nil {
		return domain.Comment{}, err
	}
	created, err := c.comments.CreateComment(ctx, cm)
	if errors.Is(err, domain.ErrNotFound) {
		return domain.Comment{}, domain.Errorf(domain.CodeNotFound, "no note %d (or the comment answered is gone)", in.BlogID)
	}
	if err != nil {
		return domain.Comment{}, err
	}
	// The inbox finds the note's author: the comment does not wait for that read.
	c.notifier.Notify(ctx, domain.NotificationEvent{Kind: domain.NotifyBlogCommented, ActorID: a.UserID, BlogID: created.BlogID,
		CommentID: created.ID, ReplyToID: created.ReplyToID, ReplyToUserID: created.ReplyToUserID, At: created.CreatedAt})
	return created, nil
}

// Delete deletes a comment, with its replies, for its author, the author of its blog or
// an ADMIN. It reports true when it deleted the comment, false when there was no such
// comment (never, or no longer): a repeated delete is no error. Errors: FORBIDDEN.
func (c *CommentCommands) Delete(ctx context.Context, a domain.Actor, id int64) (bool, error) {
	if a.UserID <= 0 && a != domain.Operator {
		return false, domain.Errorf(domain.CodeUnauthenticated, "log in first")
	}
	cm, err := c.comments.Comment(ctx, id)
	if errors.Is(err, domain.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if cm.UserID != a.UserID && a.Role != domain.RoleAdmin {
		b, err := c.blogs.Blog(ctx, cm.BlogID)
		if errors.Is(err, domain.ErrNotFound) {
			// The blog went, and its comments with it.
			return false, nil
		}
		if err != nil {
			return false, fmt.Errorf("load blog of comment %d: %w", id, err)
		}
		if b.UserID != a.UserID {
			return false, domain.Errorf(domain.CodeForbidden, "only its author, the note's author or an administrator deletes a comment")
		}
	}
	n, err := c.comments.DeleteComment(ctx, id)
	return n > 0, err
}
