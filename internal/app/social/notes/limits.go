package notes

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// Rate is at most Max events per Window; Max 0 is no limit.
type Rate struct {
	Max    int
	Window time.Duration
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
