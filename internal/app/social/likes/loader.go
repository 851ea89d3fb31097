package likes

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

// Loader reads blogs' likes through their Redis cache, loading what it lacks from the
// store.
type Loader struct {
	cache Likes
	store LikeStore
	log   *slog.Logger
	// loads coalesces concurrent loads of one blog's likes into the cache.
	loads singleflight.Group
}

// NewLoader returns a Loader over the cache and the store.
func NewLoader(cache Likes, store LikeStore, log *slog.Logger) *Loader {
	return &Loader{cache: cache, store: store, log: log}
}

// LikedBy reports, for each of blogIDs in order, whether userID likes it, loading the
// likes of blogs the cache lacks.
func (l *Loader) LikedBy(ctx context.Context, userID int64, blogIDs []int64) ([]bool, error) {
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
func (l *Loader) loadLikes(ctx context.Context, blogID int64) (BlogLikes, error) {
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

// cacheLike brings the blog's cached likes up to change c: applied in place when the
// cache holds the version before it, loaded afresh from the store otherwise. A cache that
// cannot be written is dropped, so the next read loads it.
func (l *Loader) cacheLike(ctx context.Context, blogID, userID int64, c LikeChange) {
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

// Forget drops a blog's cached likes, so the next read loads them.
func (l *Loader) Forget(ctx context.Context, blogID int64) error {
	return l.cache.Forget(ctx, blogID)
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
