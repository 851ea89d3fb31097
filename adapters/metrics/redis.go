package metrics

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/readcache"
)

// CountedTokens counts the look-ups of a verified-token cache with the read caches'
// counters, as cache "access_tokens" in the local layer.
type CountedTokens struct {
	next      auth.VerifiedTokens
	hit, miss prometheus.Counter
}

var _ auth.VerifiedTokens = (*CountedTokens)(nil)

// NewCountedTokens wraps next.
func NewCountedTokens(next auth.VerifiedTokens, m *CacheMetrics) *CountedTokens {
	return &CountedTokens{next: next,
		hit:  m.hits.WithLabelValues("access_tokens", string(readcache.LayerLocal)),
		miss: m.misses.WithLabelValues("access_tokens", string(readcache.LayerLocal)),
	}
}

// Get implements auth.VerifiedTokens.
func (c *CountedTokens) Get(key string) (any, bool) {
	v, ok := c.next.Get(key)
	if ok {
		c.hit.Inc()
	} else {
		c.miss.Inc()
	}
	return v, ok
}

// Set implements auth.VerifiedTokens.
func (c *CountedTokens) Set(key string, value any, ttl time.Duration) { c.next.Set(key, value, ttl) }

// BatchSizes observes how many calls each Redis batcher sends in one round trip.
type BatchSizes struct {
	sizes *prometheus.HistogramVec
}

// NewBatchSizes registers the histogram with reg (reusing one already there).
func NewBatchSizes(reg prometheus.Registerer) (*BatchSizes, error) {
	h := prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "dealspot_redis_batch_size",
		Help:    "Calls sent to Redis in one coalesced round trip, by batcher (gate: claims, session_check: session checks).",
		Buckets: []float64{1, 2, 4, 8, 16, 32, 64, 128, 256},
	}, []string{"batcher"})
	h, err := register(reg, h)
	if err != nil {
		return nil, err
	}
	return &BatchSizes{sizes: h}, nil
}

// For returns the observer of one batcher's sizes.
func (b *BatchSizes) For(batcher string) func(n int) {
	o := b.sizes.WithLabelValues(batcher)
	return func(n int) { o.Observe(float64(n)) }
}
