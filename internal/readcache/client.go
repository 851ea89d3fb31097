// Package readcache is a typed read-through cache for rows read far more often than they are
// written: an in-process L1 (Local) in front of a shared L2 (Remote, Redis) in front of
// the source of truth (a loader, usually the database).
//
// It defends the source against the three classic cache failures:
//   - penetration (reads of ids that do not exist): "not found" is cached as a null
//     marker for Config.NullTTL, and ids rejected by WithValid cause no I/O at all;
//   - breakdown (a popular key expires and every reader loads it at once): one load per
//     key per process (single-flight) and per cluster (Mutex); readers that find the lock
//     taken re-read L2 for a while, then load by themselves rather than fail. GetHot
//     instead keeps hot keys in L2 for good with a logical expiry, serving the old value
//     while one process refreshes it;
//   - avalanche (many keys expiring at once): every TTL gets random jitter.
//
// Writers change the database first, then call Invalidate.
package readcache

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/singleflight"
)

// Loader reads one value from the source of truth. found is false when the value does
// not exist (which is cached, briefly); an error is returned to the reader and not
// cached. GetHot may call it in the background after the reader has returned, so it must
// not depend on the reader's request beyond ctx.
type Loader[V any] func(ctx context.Context) (value V, found bool, err error)

// Client is a read-through cache of values of type V, keyed by id strings. Values
// returned from L1 are shared between readers: treat them as read-only. It is safe for
// concurrent use.
type Client[V any] struct {
	name    string
	cfg     Config
	local   Local
	remote  Remote
	mutex   Mutex
	inv     Invalidations
	metrics Metrics
	log     *slog.Logger
	codec   Codec[V]
	valid   func(id string) bool

	flights    singleflight.Group
	refreshing sync.Map // id → struct{}: hot refreshes running in this process
	// epochs are bumped by every invalidation of the ids hashing to them, so a read that
	// began before an invalidation does not put what it read into L1 afterwards.
	epochs [64]atomic.Uint64

	bg       context.Context
	cancelBg context.CancelFunc
	mu       sync.Mutex // guards closed and wg.Add
	closed   bool
	wg       sync.WaitGroup
	stopSub  func()
	closeOne sync.Once
}

// entry is what a read yields, and what L1 holds.
type entry[V any] struct {
	value V
	found bool
}

// New returns a client for the cache called name (used in keys, metrics and
// invalidations; non-empty, without ':'). With L1 on it subscribes to invalidations
// before it returns; Close ends that subscription.
func New[V any](ctx context.Context, name string, cfg Config, deps Deps, opts ...Option[V]) (*Client[V], error) {
	if name == "" || strings.Contains(name, ":") {
		return nil, fmt.Errorf("cache: name %q must be non-empty and without ':'", name)
	}
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, fmt.Errorf("cache %s: %w", name, err)
	}
	if deps.Remote == nil || deps.Mutex == nil {
		return nil, fmt.Errorf("cache %s: Remote and Mutex are required", name)
	}
	if cfg.LocalTTL > 0 && (deps.Local == nil || deps.Invalidations == nil) {
		return nil, fmt.Errorf("cache %s: L1 (LocalTTL > 0) needs Local and Invalidations", name)
	}
	c := &Client[V]{
		name:    name,
		cfg:     cfg,
		remote:  deps.Remote,
		mutex:   deps.Mutex,
		inv:     deps.Invalidations,
		metrics: deps.Metrics,
		log:     deps.Logger,
		codec:   JSON[V]{},
	}
	if cfg.LocalTTL > 0 {
		c.local = deps.Local
	}
	if c.metrics == nil {
		c.metrics = NopMetrics{}
	}
	if c.log == nil {
		c.log = slog.Default()
	}
	for _, o := range opts {
		o(c)
	}
	if c.codec == nil {
		return nil, fmt.Errorf("cache %s: nil codec", name)
	}
	c.bg, c.cancelBg = context.WithCancel(context.WithoutCancel(ctx))
	if c.local != nil {
		stop, err := c.inv.Subscribe(ctx, c.onInvalidation)
		if err != nil {
			c.cancelBg()
			return nil, fmt.Errorf("cache %s: subscribe to invalidations: %w", name, err)
		}
		c.stopSub = stop
	}
	return c, nil
}

// Close ends the invalidation subscription and waits for background refreshes, which
// it cancels. The client must not be used afterwards.
func (c *Client[V]) Close() error {
	c.closeOne.Do(func() {
		c.mu.Lock()
		c.closed = true
		c.mu.Unlock()
		if c.stopSub != nil {
			c.stopSub()
		}
		c.cancelBg()
		c.wg.Wait()
	})
	return nil
}

// Get returns the value for id: from L1, else L2, else load (whose result, found or
// not, is then cached with jittered TTLs). Concurrent misses of one id share one load
// per process and, through the Mutex, per cluster. found is false for an unknown id. The
// error is load's, or ctx's; L2 and lock failures only degrade the cache (logged), they
// do not fail the read.
func (c *Client[V]) Get(ctx context.Context, id string, load Loader[V]) (value V, found bool, err error) {
	return c.get(ctx, id, load, false)
}

// GetHot is Get for hot keys, with logical expiry: the value stays in L2 without a Redis
// TTL, stamped with a fresh-until time (Config.LogicalTTL). A stale value is returned at
// once while one goroutine in the cluster reloads it in the background; a missing value
// is loaded synchronously, once (as in Get). "Not found" is cached with NullTTL as in
// Get. Use it for a few keys known to be hot, and only for them: their L2 entries live
// until Invalidate.
func (c *Client[V]) GetHot(ctx context.Context, id string, load Loader[V]) (value V, found bool, err error) {
	return c.get(ctx, id, load, true)
}

// ByID is a Client keyed by row ids: id's decimal string is the cache key. Its Get is
// the Get of the app's reader ports by id (seckill.VoucherReader, shop.ShopCache), and
// its Invalidate the drop behind their invalidators.
type ByID[V any] struct{ c *Client[V] }

// NewByID returns c keyed by row ids.
func NewByID[V any](c *Client[V]) ByID[V] { return ByID[V]{c: c} }

// Get is Client.Get for row id.
func (b ByID[V]) Get(ctx context.Context, id int64, load func(ctx context.Context) (V, bool, error)) (V, bool, error) {
	return b.c.Get(ctx, strconv.FormatInt(id, 10), load)
}

// Invalidate is Client.Invalidate for row id.
func (b ByID[V]) Invalidate(ctx context.Context, id int64) error {
	return b.c.Invalidate(ctx, strconv.FormatInt(id, 10))
}

func (c *Client[V]) get(ctx context.Context, id string, load Loader[V], hot bool) (V, bool, error) {
	var zero V
	if c.valid != nil && !c.valid(id) {
		return zero, false, nil
	}
	if c.local != nil {
		if v, ok := c.local.Get(c.localKey(id)); ok {
			if e, ok := v.(entry[V]); ok {
				c.metrics.Hit(c.name, LayerLocal)
				return e.value, e.found, nil
			}
		}
		c.metrics.Miss(c.name, LayerLocal)
	}
	flight := "get:" + id
	if hot {
		flight = "hot:" + id
	}
	// The shared work must not die with the first reader's request: it runs detached,
	// bounded by the lock's TTL, and each reader stops waiting when its own ctx ends.
	ch := c.flights.DoChan(flight, func() (res any, err error) {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("cache %s: load %q panicked: %v", c.name, id, p)
			}
		}()
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.cfg.LockTTL)
		defer cancel()
		return c.fetch(fctx, id, load, hot)
	})
	select {
	case <-ctx.Done():
		return zero, false, fmt.Errorf("cache %s: get %q: %w", c.name, id, ctx.Err())
	case r := <-ch:
		if r.Err != nil {
			return zero, false, r.Err
		}
		e := r.Val.(entry[V])
		return e.value, e.found, nil
	}
}

func (c *Client[V]) localKey(id string) string { return c.name + ":" + id }

func (c *Client[V]) remoteKey(id string, hot bool) string {
	if hot {
		return c.name + ":hot:" + id
	}
	return c.name + ":" + id
}

// jitter returns a random duration in [d, d×(1+Jitter)).
func (c *Client[V]) jitter(d time.Duration) time.Duration {
	if d <= 0 || c.cfg.Jitter == 0 {
		return d
	}
	return d + time.Duration(rand.Float64()*c.cfg.Jitter*float64(d))
}
