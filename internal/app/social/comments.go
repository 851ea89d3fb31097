package social

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dealspot/dealspot/internal/domain"
)

// RateLimiter counts events per key in a sliding window (the Redis limiter the login
// uses).
type RateLimiter interface {
	// Allow records one event for key if fewer than limit were recorded in the last
	// window; otherwise it records nothing and returns ok=false and how long until an
	// event would be allowed.
	Allow(ctx context.Context, key string, limit int, window time.Duration) (ok bool, retryAfter time.Duration, err error)
}

// Rate is at most Max events per Window; Max 0 is no limit.
type Rate struct {
	Max    int
	Window time.Duration
}

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
	limits   *postLimits
}

// Create publishes a comment by the actor. Errors: BAD_USER_INPUT (empty or too long,
// a reply to another blog's comment), NOT_FOUND (no such blog or comment),
// RATE_LIMITED.
func (c *CommentCommands) Create(ctx context.Context, a domain.Actor, in CommentInput) (domain.Comment, error) {
	if a.UserID <= 0 {
		return domain.Comment{}, domain.Errorf(domain.CodeUnauthenticated, "log in first")
	}
	content, err := validText("content", in.Content, maxCommentRunes, true)
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
		cm.ParentID, cm.ReplyToUserID = parent.ID, parent.UserID
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
	return created, err
}

// Delete deletes a comment, with its replies, for its author or an ADMIN. It reports
// false when the comment was gone already. Errors: FORBIDDEN, NOT_FOUND.
func (c *CommentCommands) Delete(ctx context.Context, a domain.Actor, id int64) (bool, error) {
	if a.UserID <= 0 && a != domain.Operator {
		return false, domain.Errorf(domain.CodeUnauthenticated, "log in first")
	}
	cm, err := c.comments.Comment(ctx, id)
	if errors.Is(err, domain.ErrNotFound) {
		return false, domain.Errorf(domain.CodeNotFound, "no comment %d", id)
	}
	if err != nil {
		return false, err
	}
	if cm.UserID != a.UserID && a.Role != domain.RoleAdmin {
		return false, domain.Errorf(domain.CodeForbidden, "only its author or an administrator deletes a comment")
	}
	n, err := c.comments.DeleteComment(ctx, id)
	return n > 0, err
}

// CommentPage is one page of comments.
type CommentPage struct {
	Comments    []domain.Comment
	HasNextPage bool
}

// CommentQueries read comments.
type CommentQueries struct {
	comments Comments
	pages    domain.PageLimits
}

// Comments pages through a blog's top-level comments (parentID 0) or a comment's
// replies, oldest first unless newestFirst, after the comment id after (0: from the
// start).
func (q *CommentQueries) Comments(ctx context.Context, blogID, parentID int64, newestFirst bool, first int, after int64) (CommentPage, error) {
	size, err := q.pages.Size(first)
	if err != nil {
		return CommentPage{}, err
	}
	if blogID <= 0 || parentID < 0 || after < 0 {
		return CommentPage{}, domain.Errorf(domain.CodeBadUserInput, "ids must be positive")
	}
	list, err := q.comments.Comments(ctx, blogID, parentID, newestFirst, after, size+1)
	if err != nil {
		return CommentPage{}, err
	}
	page := CommentPage{Comments: list}
	if len(list) > size {
		page.Comments, page.HasNextPage = list[:size], true
	}
	return page, nil
}

// PageSize is the size of a page asked for with first (the default for 0);
// BAD_USER_INPUT past the largest.
func (q *CommentQueries) PageSize(first int) (int, error) { return q.pages.Size(first) }

// FirstComments returns the first page (first+1 rows, so the caller can tell whether
// more follow) of each blog's top-level comments, with one query.
func (q *CommentQueries) FirstComments(ctx context.Context, blogIDs []int64, newestFirst bool, first int) (map[int64][]domain.Comment, error) {
	size, err := q.pages.Size(first)
	if err != nil {
		return nil, err
	}
	m, err := q.comments.FirstComments(ctx, unique(blogIDs), newestFirst, size+1)
	if err != nil {
		return nil, fmt.Errorf("first comments of %d notes: %w", len(blogIDs), err)
	}
	return m, nil
}

// FirstReplies returns the first page (first+1 rows) of each comment's replies, oldest
// first, with one query.
func (q *CommentQueries) FirstReplies(ctx context.Context, parentIDs []int64, first int) (map[int64][]domain.Comment, error) {
	size, err := q.pages.Size(first)
	if err != nil {
		return nil, err
	}
	m, err := q.comments.FirstReplies(ctx, unique(parentIDs), size+1)
	if err != nil {
		return nil, fmt.Errorf("first replies of %d comments: %w", len(parentIDs), err)
	}
	return m, nil
}

// postLimits bound how often a user posts notes and comments.
type postLimits struct {
	limiter RateLimiter
	rates   map[string]Rate
}

// allow counts one post of kind by userID; RATE_LIMITED past its rate.
func (p *postLimits) allow(ctx context.Context, kind string, userID int64) error {
	if p == nil || p.limiter == nil {
		return nil
	}
	r := p.rates[kind]
	if r.Max == 0 {
		return nil
	}
	ok, wait, err := p.limiter.Allow(ctx, "post:"+kind+":"+strconv.FormatInt(userID, 10), r.Max, r.Window)
	if err != nil {
		return fmt.Errorf("rate limit %s: %w", kind, err)
	}
	if !ok {
		return &domain.Error{Code: domain.CodeRateLimited, Message: fmt.Sprintf("too many %ss: at most %d per %s", kind, r.Max, r.Window),
			RetryAfterSeconds: max(1, int((wait+time.Second-1)/time.Second))}
	}
	return nil
}

// validText trims s and checks it is 1 to maxRunes characters of valid UTF-8 that
// domain.CheckText accepts as multi-line or single-line text.
func validText(field, s string, maxRunes int, multiLine bool) (string, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return "", domain.Errorf(domain.CodeBadUserInput, "%s must not be empty", field)
	case !utf8.ValidString(s):
		return "", domain.Errorf(domain.CodeBadUserInput, "%s must be valid UTF-8", field)
	case utf8.RuneCountInString(s) > maxRunes:
		return "", domain.Errorf(domain.CodeBadUserInput, "%s must be at most %d characters", field, maxRunes)
	}
	return s, domain.CheckText(field, s, multiLine)
}
