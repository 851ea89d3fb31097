package redis

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/app/media"
)

var (
	//go:embed lua/rate_limit.lua
	rateLimitLua    string
	rateLimitScript = goredis.NewScript(rateLimitLua)
)

// RateLimiter is a sliding-window limiter over Redis ZSETs: exact counts, one key per
// limited subject (ratelimit:{<key>}).
type RateLimiter struct {
	client goredis.UniversalClient
	now    func() time.Time
}

var (
	_ auth.RateLimiter  = (*RateLimiter)(nil)
	_ media.RateLimiter = (*RateLimiter)(nil)
)

// NewRateLimiter returns a RateLimiter on client.
func NewRateLimiter(client goredis.UniversalClient) *RateLimiter {
	return &RateLimiter{client: client, now: time.Now}
}

// WithClock returns a copy of l that reads time from now.
func (l *RateLimiter) WithClock(now func() time.Time) *RateLimiter {
	c := *l
	c.now = now
	return &c
}

// Allow implements auth.RateLimiter and media.RateLimiter.
func (l *RateLimiter) Allow(ctx context.Context, key string, limit int, window time.Duration) (bool, time.Duration, error) {
	if limit < 1 || window <= 0 {
		return false, 0, errors.New("rate limit: limit and window must be positive")
	}
	res, err := rateLimitScript.Run(ctx, l.client, []string{"ratelimit:{" + key + "}"},
		l.now().UnixMilli(), millis(window), limit, eventID()).Int64Slice()
	if err != nil {
		return false, 0, fmt.Errorf("rate limit %q: %w", key, err)
	}
	if len(res) != 3 {
		return false, 0, fmt.Errorf("rate limit %q: unexpected reply %v", key, res)
	}
	return res[0] == 1, time.Duration(res[1]) * time.Millisecond, nil
}
