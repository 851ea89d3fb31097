// Package localcache is Dealspot's in-process cache (L1), on otter: bounded by entry
// count (W-TinyLFU eviction) with a TTL per entry.
package localcache

import (
	"errors"
	"time"

	"github.com/maypok86/otter/v2"

	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/readcache"
)

type item struct {
	value any
	ttl   time.Duration
}

// Cache implements readcache.Local, and auth.VerifiedTokens for the access-token cache.
type Cache struct {
	c *otter.Cache[string, item]
}

var _ readcache.Local = (*Cache)(nil)
var _ auth.VerifiedTokens = (*Cache)(nil)

// New returns a cache holding at most maxEntries entries.
func New(maxEntries int) (*Cache, error) {
	if maxEntries < 1 {
		return nil, errors.New("local cache: maxEntries must be positive")
	}
	c, err := otter.New(&otter.Options[string, item]{
		MaximumSize: maxEntries,
		// Each entry lives for the TTL it was written with; reads do not extend it.
		ExpiryCalculator: otter.ExpiryWritingFunc(func(e otter.Entry[string, item]) time.Duration {
			return e.Value.ttl
		}),
	})
	if err != nil {
		return nil, err
	}
	return &Cache{c: c}, nil
}

// Get implements readcache.Local.
func (l *Cache) Get(key string) (any, bool) {
	it, ok := l.c.GetIfPresent(key)
	return it.value, ok
}

// Set implements readcache.Local. A non-positive ttl stores nothing (and drops key).
func (l *Cache) Set(key string, value any, ttl time.Duration) {
	if ttl <= 0 {
		l.c.Invalidate(key)
		return
	}
	l.c.Set(key, item{value: value, ttl: ttl})
}

// Delete implements readcache.Local.
func (l *Cache) Delete(key string) { l.c.Invalidate(key) }

// Clear implements readcache.Local.
func (l *Cache) Clear() { l.c.InvalidateAll() }

// Len returns about how many entries the cache holds.
func (l *Cache) Len() int { return l.c.EstimatedSize() }

// Close stops the cache's background clean-up; entries stay readable until they expire.
func (l *Cache) Close() { l.c.StopAllGoroutines() }
