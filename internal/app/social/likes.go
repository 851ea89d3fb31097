package social

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// LikeBlog toggles userID's like of a blog: a like, or an unlike when the user already
// likes it. Redis decides the toggle atomically and numbers it; the database count is
// then written with that number, so concurrent toggles (a double click, many users at
// once) leave the count equal to the set of likers. Errors: NOT_FOUND.
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
	t, err := s.d.Likes.Toggle(ctx, blogID, userID, s.now())
	if err != nil {
		return BlogView{}, fmt.Errorf("toggle like: %w", err)
	}
	if _, err := s.d.Blogs.SetLiked(ctx, blogID, t.Count, t.Seq); err != nil {
		// The like stands in Redis; the count follows as soon as the database takes it.
		s.log.Warn("cannot store like count; retrying in the background", slog.Int64("blog_id", blogID), slog.Any("error", err))
		s.likes.add(blogID, t.Count, t.Seq)
	}
	b.Liked = t.Count
	views, err := s.hydrate(ctx, userID, []domain.Blog{b}, []bool{t.Liked})
	if err != nil {
		return BlogView{}, err
	}
	return views[0], nil
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
	ids, err := s.d.Likes.Likers(ctx, blogID, n)
	if err != nil {
		return nil, fmt.Errorf("list likers of blog %d: %w", blogID, err)
	}
	users, err := s.d.Users.UsersByIDs(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("load likers of blog %d: %w", blogID, err)
	}
	return users, nil
}

// likeWrite is a like count waiting to reach the database.
type likeWrite struct {
	count    int
	seq      int64
	attempts int
}

// likeWriter retries like counts the database refused. Only the newest count of a blog
// matters, so a blog has at most one write waiting.
type likeWriter struct {
	blogs Blogs
	log   *slog.Logger

	mu      sync.Mutex
	pending map[int64]likeWrite
	wake    chan struct{}
	done    chan struct{}
	stopped chan struct{}
}

const (
	likeRetryInterval = time.Second
	likeMaxAttempts   = 30
)

func startLikeWriter(blogs Blogs, log *slog.Logger) *likeWriter {
	w := &likeWriter{
		blogs: blogs, log: log, pending: map[int64]likeWrite{},
		wake: make(chan struct{}, 1), done: make(chan struct{}), stopped: make(chan struct{}),
	}
	go w.run()
	return w
}

func (w *likeWriter) add(blogID int64, count int, seq int64) {
	w.mu.Lock()
	if p, ok := w.pending[blogID]; !ok || p.seq < seq {
		w.pending[blogID] = likeWrite{count: count, seq: seq}
	}
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

func (w *likeWriter) run() {
	defer close(w.stopped)
	tick := time.NewTicker(likeRetryInterval)
	defer tick.Stop()
	for {
		select {
		case <-w.done:
			w.flush()
			return
		case <-tick.C:
		case <-w.wake:
			// Give a failing database a moment before the first retry.
			select {
			case <-w.done:
				w.flush()
				return
			case <-time.After(likeRetryInterval / 4):
			}
		}
		w.flush()
	}
}

// flush tries every waiting write once.
func (w *likeWriter) flush() {
	w.mu.Lock()
	batch := w.pending
	w.pending = map[int64]likeWrite{}
	w.mu.Unlock()
	for blogID, p := range batch {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err := w.blogs.SetLiked(ctx, blogID, p.count, p.seq)
		cancel()
		if err == nil {
			continue
		}
		p.attempts++
		if p.attempts >= likeMaxAttempts {
			w.log.Error("giving up on a like count; it is corrected by the blog's next like", slog.Int64("blog_id", blogID), slog.Any("error", err))
			continue
		}
		w.mu.Lock()
		if q, ok := w.pending[blogID]; !ok || q.seq < p.seq {
			w.pending[blogID] = p
		}
		w.mu.Unlock()
	}
}

func (w *likeWriter) stop() {
	select {
	case <-w.done:
	default:
		close(w.done)
	}
	<-w.stopped
}
