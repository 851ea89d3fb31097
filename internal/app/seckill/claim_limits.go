package seckill

import (
	"sync"
	"time"
)

// userClaimLimiter holds each user to Max claims per sliding Window across every sale,
// in this process. It is checked before the gate, so it costs the claim no round trip;
// the gate still counts each user's claims per shard of sales in Redis, which bounds a
// user who spreads claims over several server nodes.
type userClaimLimiter struct {
	limit  RateLimit
	shards [64]userClaimShard
}

type userClaimShard struct {
	mu sync.Mutex
	// claims holds each user's claim times within the window, oldest first.
	claims map[int64][]time.Time
	// sweepAt is when users idle for a whole window are next forgotten.
	sweepAt time.Time
}

func newUserClaimLimiter(limit RateLimit) *userClaimLimiter {
	if limit.Max <= 0 || limit.Window <= 0 {
		return nil
	}
	l := &userClaimLimiter{limit: limit}
	for i := range l.shards {
		l.shards[i].claims = map[int64][]time.Time{}
	}
	return l
}

// allow counts a claim by user at now; when the user is over the limit it counts nothing
// and returns how long until the next claim fits.
func (l *userClaimLimiter) allow(user int64, now time.Time) (bool, time.Duration) {
	if l == nil {
		return true, 0
	}
	sh := &l.shards[uint64(user)%uint64(len(l.shards))]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if now.After(sh.sweepAt) {
		sh.sweep(now.Add(-l.limit.Window))
		sh.sweepAt = now.Add(l.limit.Window)
	}
	times := sh.claims[user]
	cut := 0
	for cut < len(times) && !times[cut].After(now.Add(-l.limit.Window)) {
		cut++
	}
	times = times[cut:]
	if len(times) >= l.limit.Max {
		sh.claims[user] = times
		return false, times[len(times)-l.limit.Max].Add(l.limit.Window).Sub(now)
	}
	sh.claims[user] = append(times, now)
	return true, 0
}

// sweep forgets users whose last claim is not after since.
func (sh *userClaimShard) sweep(since time.Time) {
	for u, times := range sh.claims {
		if len(times) == 0 || !times[len(times)-1].After(since) {
			delete(sh.claims, u)
		}
	}
}

// claimBucket is a token bucket over all claims in this process: Max tokens, refilled at
// Max per Window.
type claimBucket struct {
	mu       sync.Mutex
	capacity float64
	perNano  float64
	tokens   float64
	last     time.Time
}

func newClaimBucket(rate RateLimit, now time.Time) *claimBucket {
	if rate.Max <= 0 || rate.Window <= 0 {
		return nil
	}
	return &claimBucket{capacity: float64(rate.Max), perNano: float64(rate.Max) / float64(rate.Window),
		tokens: float64(rate.Max), last: now}
}

// take spends one token at now; when none is left it returns how long until one is.
func (b *claimBucket) take(now time.Time) (bool, time.Duration) {
	if b == nil {
		return true, 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if now.After(b.last) {
		b.tokens = min(b.capacity, b.tokens+float64(now.Sub(b.last))*b.perNano)
		b.last = now
	}
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	return false, time.Duration((1-b.tokens)/b.perNano) + 1
}
