package social

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/dealspot/dealspot/internal/domain"
)

// likeLoadTimeout bounds one load of a blog's likes into the cache. Loads run on a
// context of their own: callers waiting for the same load share it, and one caller
// giving up does not fail the others.
const likeLoadTimeout = 30 * time.Second

// LikeCommands like and unlike blogs.
type LikeCommands struct {
	blogs   Blogs
	likes   *likeLoader
	hydrate *hydrator
	now     func() time.Time
}

// LikeBlog toggles userID's like of a blog: a like, or an unlike when the user already
// likes it. The relational store decides the toggle and counts the likes in one
// transaction, so concurrent toggles (a double click, many users at once) alternate and
// leave the count equal to the set of likers; the Redis like set follows. Errors:
// NOT_FOUND.
func (c *LikeCommands) LikeBlog(ctx context.Context, userID, blogID int64) (BlogView, error) {
	if blogID <= 0 {
		return BlogView{}, domain.Errorf(domain.CodeNotFound, "no blog %d", blogID)
	}
	b, err := c.blogs.Blog(ctx, blogID)
	if errors.Is(err, domain.ErrNotFound) {
		return BlogView{}, domain.Errorf(domain.CodeNotFound, "no blog %d", blogID)
	}
	if err != nil {
		return BlogView{}, fmt.Errorf("load blog %d: %w", blogID, err)
	}
	ch, err := c.likes.store.Toggle(ctx, blogID, userID, c.now())
	if errors.Is(err, domain.ErrNotFound) {
		return BlogView{}, domain.Errorf(domain.CodeNotFound, "no blog %d", blogID)
	}
	if err != nil {
		return BlogView{}, fmt.Errorf("toggle like: %w", err)
	}
	// The toggle is stored; from here on only the cache is at stake, and a client that
	// goes away must not leave it behind the database.
	c.likes.cacheLike(context.WithoutCancel(ctx), blogID, userID, ch)
	b.Liked = ch.Count
	views, err := c.hydrate.views(ctx, userID, []domain.Blog{b}, []bool{ch.Liked})
	if err != nil {
		return BlogView{}, err
	}
	return views[0], nil
}

// cacheLike brings the blog's cached likes up to change c: applied in place when the
// cache holds the version before it, loaded afresh from the store otherwise. A cache that
// cannot be written is dropped, so the next read loads it.
func (l *likeLoader) cacheLike(ctx context.Context, blogID, userID int64, c LikeChange) {
	ok, err := l.cache.Apply(ctx, blogID, userID, c)
	if err == nil && ok {
		return
	}
	if err == nil {
		// Not cached, or a change in between is missing: load a snapshot taken after
		// this change, not one a reader started before it committed.
		l.loads.Forget(likeLoadKey(blogID))
		if _, err = l.loadLikes(ctx, blogID); err == nil {
			return
		}
	}
	l.log.Warn("cannot update the cached likes of a blog; dropping them", slog.Int64("blog_id", blogID), slog.Any("error", err))
	if err := l.cache.Forget(ctx, blogID); err != nil {
		l.log.Error("cannot drop the cached likes of a blog; they lag until its next like",
			slog.Int64("blog_id", blogID), slog.Any("error", err))
	}
}

// LikeQueries tell who likes a blog.
type LikeQueries struct {
	likes  *likeLoader
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

// likeLoader reads blogs' likes through their Redis cache, loading what it lacks from
// the store.
type likeLoader struct {
	cache Likes
	store LikeStore
	log   *slog.Logger
	// loads coalesces concurrent loads of one blog's likes into the cache.
	loads singleflight.Group
}

func newLikeLoader(cache Likes, store LikeStore, log *slog.Logger) *likeLoader {
	return &likeLoader{cache: cache, store: store, log: log}
}

// likedBy reports, for each of blogIDs in order, whether userID likes it, loading the
// likes of blogs the cache lacks.
func (l *likeLoader) likedBy(ctx context.Context, userID int64, blogIDs []int64) ([]bool, error) {
	liked, cached, err := l.cache.LikedBy(ctx, userID, blogIDs)
	if err != nil {
		return nil, err
	}
	for i, id := range blogIDs {
		if cached[i] {
			continue
		}
		bl, err := l.loadLikes(ctx, id)
		if errors.Is(err, domain.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		liked[i] = slices.ContainsFunc(bl.Likes, func(l Like) bool { return l.UserID == userID })
		// The same blog later in blogIDs is answered from this load too.
		for j := i + 1; j < len(blogIDs); j++ {
			if blogIDs[j] == id {
				liked[j], cached[j] = liked[i], true
			}
		}
	}
	return liked, nil
}

// loadLikes reads a blog's likes from the store and caches them. Concurrent loads of
// one blog share one read. The likes come in the cache's order. Errors:
// domain.ErrNotFound for an unknown blog (nothing is cached for it).
func (l *likeLoader) loadLikes(ctx context.Context, blogID int64) (BlogLikes, error) {
	v, err, _ := l.loads.Do(likeLoadKey(blogID), func() (any, error) {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), likeLoadTimeout)
		defer cancel()
		bl, err := l.store.BlogLikes(ctx, blogID)
		if err != nil {
			return BlogLikes{}, fmt.Errorf("load likes of blog %d: %w", blogID, err)
		}
		sortLikes(bl.Likes)
		if err := l.cache.Load(ctx, blogID, bl); err != nil {
			// The caller is answered from the store all the same.
			l.log.Warn("cannot cache the likes of a blog", slog.Int64("blog_id", blogID), slog.Any("error", err))
		}
		return bl, nil
	})
	if err != nil {
		return BlogLikes{}, err
	}
	return v.(BlogLikes), nil
}

func likeLoadKey(blogID int64) string { return strconv.FormatInt(blogID, 10) }

// sortLikes puts likes in the order the cache lists likers: by like time in
// milliseconds, then by user id as text.
func sortLikes(likes []Like) {
	slices.SortStableFunc(likes, func(a, b Like) int {
		if c := cmp.Compare(a.At.UnixMilli(), b.At.UnixMilli()); c != 0 {
			return c
		}
		return cmp.Compare(strconv.FormatInt(a.UserID, 10), strconv.FormatInt(b.UserID, 10))
	})
}
