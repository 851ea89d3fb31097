package authtest

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/dealspot/dealspot/internal/app/auth"
)

// MemRateLimiter is an in-memory auth.RateLimiter on a clock of the caller's.
type MemRateLimiter struct {
	now  func() time.Time
	mu   sync.Mutex
	keys map[string]*memWindow
	ids  memEventIDs
}

var _ auth.RateLimiter = (*MemRateLimiter)(nil)

// NewMemRateLimiter returns a limiter that reads time from now (nil: the real clock).
func NewMemRateLimiter(now func() time.Time) *MemRateLimiter {
	if now == nil {
		now = time.Now
	}
	return &MemRateLimiter{now: now, keys: map[string]*memWindow{}}
}

// Allow implements auth.RateLimiter.
func (l *MemRateLimiter) Allow(_ context.Context, key string, limit int, window time.Duration) (bool, time.Duration, error) {
	if limit < 1 || window <= 0 {
		return false, 0, errors.New("rate limit: limit and window must be positive")
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.keys[key]
	if w == nil {
		w = &memWindow{}
		l.keys[key] = w
	}
	ok, retry := w.allow(l.now(), window, limit, l.ids.next())
	return ok, retry, nil
}
