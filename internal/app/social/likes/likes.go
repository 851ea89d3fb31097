package likes

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/domain"
)

// LikeCommands like and unlike blogs.
type LikeCommands struct {
	blogs    Blogs
	likes    *Loader
	notifier Notifier
	now      func() time.Time
}

// LikeBlog makes userID like a blog; liking a blog the user likes already changes
// nothing, so a repeated request keeps the like. Errors: NOT_FOUND.
func (c *LikeCommands) LikeBlog(ctx context.Context, userID, blogID int64) (notes.BlogView, error) {
	return c.setLike(ctx, userID, blogID, true)
}

// UnlikeBlog takes userID's like of a blog back; unliking a blog the user does not like
// changes nothing. Errors: NOT_FOUND.
func (c *LikeCommands) UnlikeBlog(ctx context.Context, userID, blogID int64) (notes.BlogView, error) {
	return c.setLike(ctx, userID, blogID, false)
}

// setLike makes userID like a blog, or not. The relational store decides and counts the
// likes in one transaction, so concurrent likes and unlikes (many users at once, a
// double click) leave the count equal to the set of likers; the Redis like set follows
// each change.
func (c *LikeCommands) setLike(ctx context.Context, userID, blogID int64, like bool) (notes.BlogView, error) {
	if blogID <= 0 {
		return notes.BlogView{}, domain.Errorf(domain.CodeNotFound, "no blog %d", blogID)
	}
	b, err := c.blogs.Blog(ctx, blogID)
	if errors.Is(err, domain.ErrNotFound) {
		return notes.BlogView{}, domain.Errorf(domain.CodeNotFound, "no blog %d", blogID)
	}
	if err != nil {
		return notes.BlogView{}, fmt.Errorf("load blog %d: %w", blogID, err)
	}
	ch, err := c.likes.store.SetLike(ctx, blogID, userID, like, c.now())
	if errors.Is(err, domain.ErrNotFound) {
		return notes.BlogView{}, domain.Errorf(domain.CodeNotFound, "no blog %d", blogID)
	}
	if err != nil {
		return notes.BlogView{}, fmt.Errorf("set like: %w", err)
	}
	if ch.Changed {
		// The change is stored; from here on only the cache is at stake, and a client
		// that goes away must not leave it behind the database.
		c.likes.cacheLike(context.WithoutCancel(ctx), blogID, userID, ch)
		if like {
			c.notifier.Notify(ctx, domain.NotificationEvent{Kind: domain.NotifyBlogLiked, ActorID: userID, RecipientID: b.UserID, BlogID: blogID, At: ch.At})
		}
	}
	b.Liked = ch.Count
	return notes.BlogView{Blog: b, LikedByMe: ch.Liked}, nil
}

// LikeQueries tell who likes a blog.
type LikeQueries struct {
	likes  *Loader
	users  Users
	limits domain.PageLimits
}

// BlogLikers returns the first likers of a blog, earliest first; first 0 means the
// default (5). An unknown blog has none. Errors: BAD_USER_INPUT for a bad count.
func (q *LikeQueries) BlogLikers(ctx context.Context, blogID int64, first int) ([]domain.User, error) {
	n, err := q.limits.Size(first)
	if err != nil {
		return nil, err
	}
	if blogID <= 0 {
		return nil, nil
	}
	ids, cached, err := q.likes.cache.Likers(ctx, blogID, n)
	if err != nil {
		return nil, fmt.Errorf("list likers of blog %d: %w", blogID, err)
	}
	if !cached {
		bl, err := q.likes.loadLikes(ctx, blogID)
		if errors.Is(err, domain.ErrNotFound) {
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("list likers of blog %d: %w", blogID, err)
		}
		ids = ids[:0]
		for _, l := range bl.Likes[:min(n, len(bl.Likes))] {
			ids = append(ids, l.UserID)
		}
	}
	users, err := q.users.UsersByIDs(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("load likers of blog %d: %w", blogID, err)
	}
	return users, nil
}
