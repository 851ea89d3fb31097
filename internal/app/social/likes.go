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

	"github.com/dealspot/dealspot/internal/domain"
)

// likeLoadTimeout bounds one load of a blog's likes into the cache. Loads run on a
// context of their own: callers waiting for the same load share it, and one caller
// giving up does not fail the others.
const likeLoadTimeout = 30 * time.Second

// LikeBlog toggles userID's like of a blog: a like, or an unlike when the user already
// likes it. The relational store decides the toggle and counts the likes in one
// transaction, so concurrent toggles (a double click, many users at once) alternate and
// leave the count equal to the set of likers; the Redis like set follows. Errors:
// NOT_FOUND.
func (s *Service) LikeBlog(ctx context.Context, userID, blogID int64) (BlogView, error) {
	if blogID <= 0 {
		return BlogView{}, domain.Errorf(domain.CodeNotFound, "no blog %d", blogID)
	}
	b, err := s.d.Blogs.Blog(ctx, blogID)
	if errors.Is(err, domain.ErrNotFound) {
		return BlogView{}, domain.Errorf(domain.CodeNotFound, "no blog %d", blogID)
	}
	if err != nil {
		return BlogView{}, fmt.Errorf("load blog %d: %w", blogID, err)
	}
	c, err := s.d.LikeStore.Toggle(ctx, blogID, userID, s.now())
	if errors.Is(err, domain.ErrNotFound) {
		return BlogView{}, domain.Errorf(domain.CodeNotFound, "no blog %d", blogID)
	}
	if err != nil {
		return BlogView{}, fmt.Errorf("toggle like: %w", err)
	}
	// The toggle is stored; from here on only the cache is at stake, and a client that
	// goes away must not leave it behind the database.
	s.cacheLike(context.WithoutCancel(ctx), blogID, userID, c)
	b.Liked = c.Count
	views, err := s.hydrate(ctx, userID, []domain.Blog{b}, []bool{c.Liked})
	if err != nil {
		return BlogView{}, err
	}
	return views[0], nil
}

// cacheLike brings the blog's cached likes up to change c: applied in place when the
// cache holds the version before it, loaded afresh from the store otherwise. A cache that
// cannot be written is dropped, so the next read loads it.
func (s *Service) cacheLike(ctx context.Context, blogID, userID int64, c LikeChange) {
	ok, err := s.d.Likes.Apply(ctx, blogID, userID, c)
	if err == nil && ok {
		return
	}
	if err == nil {
		// Not cached, or a change in between is missing: load a snapshot taken after
		// this change, not one a reader started before it committed.
		s.likeLoads.Forget(likeLoadKey(blogID))
		if _, err = s.loadLikes(ctx, blogID); err == nil {
			return
		}
	}
	s.log.Warn("cannot update the cached likes of a blog; dropping them", slog.Int64("blog_id", blogID), slog.Any("error", err))
	if err := s.d.Likes.Forget(ctx, blogID); err != nil {
		s.log.Error("cannot drop the cached likes of a blog; they lag until its next like",
			slog.Int64("blog_id", blogID), slog.Any("error", err))
	}
}

// BlogLikers returns the first likers of a blog, earliest first; first 0 means the
// default (5). An unknown blog has none. Errors: BAD_USER_INPUT for a bad count.
func (s *Service) BlogLikers(ctx context.Context, blogID int64, first int) ([]domain.User, error) {
	n, err := s.cfg.Likers.Size(first)
	if err != nil {
		return nil, err
	}
	if blogID <= 0 {
		return nil, nil
	}
	ids, cached, err := s.d.Likes.Likers(ctx, blogID, n)
	if err != nil {
		return nil, fmt.Errorf("list likers of blog %d: %w", blogID, err)
	}
	if !cached {
		bl, err := s.loadLikes(ctx, blogID)
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
	users, err := s.d.Users.UsersByIDs(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("load likers of blog %d: %w", blogID, err)
	}
	return users, nil
}

// likedBy reports, for each of blogIDs in order, whether userID likes it, loading the
// likes of blogs the cache lacks.
func (s *Service) likedBy(ctx context.Context, userID int64, blogIDs []int64) ([]bool, error) {
	liked, cached, err := s.d.Likes.LikedBy(ctx, userID, blogIDs)
	if err != nil {
		return nil, err
	}
	for i, id := range blogIDs {
		if cached[i] {
			continue
		}
		bl, err := s.loadLikes(ctx, id)
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
func (s *Service) loadLikes(ctx context.Context, blogID int64) (BlogLikes, error) {
	v, err, _ := s.likeLoads.Do(likeLoadKey(blogID), func() (any, error) {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), likeLoadTimeout)
		defer cancel()
		bl, err := s.d.LikeStore.BlogLikes(ctx, blogID)
		if err != nil {
			return BlogLikes{}, fmt.Errorf("load likes of blog %d: %w", blogID, err)
		}
		sortLikes(bl.Likes)
		if err := s.d.Likes.Load(ctx, blogID, bl); err != nil {
			// The caller is answered from the store all the same.
			s.log.Warn("cannot cache the likes of a blog", slog.Int64("blog_id", blogID), slog.Any("error", err))
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

// ImportLegacyFacts copies into the relational store the likes and sign-ins that only
// Redis holds: those written before the store kept them, by an earlier version. It
// returns how many likes and months it copied. Run it at start; once it has copied
// everything, it returns at once.
func (s *Service) ImportLegacyFacts(ctx context.Context) (likes, months int, err error) {
	err = s.d.Likes.Legacy(ctx, func(blogID int64, ls []Like) error {
		n, err := s.d.LikeStore.Import(ctx, blogID, ls)
		if errors.Is(err, domain.ErrNotFound) {
			return nil // the blog is gone; its like set is dropped at its next load
		}
		if err != nil {
			return fmt.Errorf("import likes of blog %d: %w", blogID, err)
		}
		likes += n
		// The like set has no version: the next read loads the store's likes over it.
		return nil
	})
	if err != nil {
		return likes, months, err
	}
	err = s.d.SignIns.Legacy(ctx, func(userID int64, month time.Time, mask uint32) error {
		if mask == 0 {
			return nil
		}
		if err := s.d.SignInStore.Merge(ctx, userID, month, mask); err != nil {
			return fmt.Errorf("import sign-ins of user %d: %w", userID, err)
		}
		months++
		return nil
	})
	return likes, months, err
}
