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
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
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

// Deps are the ports a Client uses.
type Deps struct {
	// Local is L1; required when Config.LocalTTL > 0, ignored otherwise. One Local may
	// serve several clients: keys start with the client's name.
	Local Local
	// Remote is L2; required.
	Remote Remote
	// Mutex serializes rebuilds across processes; required.
	Mutex Mutex
	// Invalidations carries Invalidate to every process; required with L1 on (else
	// other processes would serve their L1 copy until it expires), optional otherwise.
	Invalidations Invalidations
	// Metrics observes hits, misses, loads and lock waits; nil observes nothing.
	Metrics Metrics
	// Logger reports degraded operation (L2 or lock unreachable, failed background
	// refreshes); nil means slog.Default().
	Logger *slog.Logger
}

// Option customizes a Client.
type Option[V any] func(*Client[V])

// WithCodec sets how values are stored in L2 (default JSON).
func WithCodec[V any](codec Codec[V]) Option[V] {
	return func(c *Client[V]) { c.codec = codec }
}

// WithValid rejects ids that cannot exist before any I/O: reads of such an id return
// "not found" at once, without touching L1, L2 or the loader. Without it every id is
// looked up (and a missing one cached as null).
func WithValid[V any](valid func(id string) bool) Option[V] {
	return func(c *Client[V]) { c.valid = valid }
}

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

// stored is an L2 entry: expiresAt is the logical expiry of hot values (zero otherwise).
type stored[V any] struct {
	entry[V]
	expiresAt time.Time
}

func (s stored[V]) stale(now time.Time) bool {
	return s.found && !s.expiresAt.IsZero() && !now.Before(s.expiresAt)
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

// Invalidate drops id from L2 and, by broadcast, from L1 on every process (this one
// at once). Call it after the change is committed to the database — write first, then
// invalidate — so that any read that misses afterwards loads the new row. On error
// (L2 or the broadcast unreachable) some process may serve the old value until its TTL
// runs out; callers may retry.
func (c *Client[V]) Invalidate(ctx context.Context, id string) error {
	if c.valid != nil && !c.valid(id) {
		return nil
	}
	var errs []error
	if err := c.remote.Delete(ctx, c.remoteKey(id, false), c.remoteKey(id, true)); err != nil {
		errs = append(errs, fmt.Errorf("cache %s: delete %q: %w", c.name, id, err))
	}
	c.drop(id)
	if c.inv != nil {
		if err := c.inv.Publish(ctx, c.name+":"+id); err != nil {
			errs = append(errs, fmt.Errorf("cache %s: broadcast invalidation of %q: %w", c.name, id, err))
		}
	}
	return errors.Join(errs...)
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

// fetch reads L2 and, on a miss, rebuilds; it runs once per key per process at a time.
func (c *Client[V]) fetch(ctx context.Context, id string, load Loader[V], hot bool) (entry[V], error) {
	epoch := c.epoch(id).Load()
	if s, ok := c.readRemote(ctx, id, hot); ok {
		c.metrics.Hit(c.name, LayerRemote)
		if s.stale(time.Now()) {
			// Not kept in L1, so this process sees the refreshed value as soon as it is
			// in L2.
			c.refreshAsync(id, load)
			return s.entry, nil
		}
		c.toLocal(id, s.entry, epoch)
		return s.entry, nil
	}
	c.metrics.Miss(c.name, LayerRemote)
	e, err := c.rebuild(ctx, id, load, hot)
	if err != nil {
		return entry[V]{}, err
	}
	c.toLocal(id, e, epoch)
	return e, nil
}

// rebuild fills a missing L2 entry: under the key's lock, or after waiting for the
// holder's result, or — when the wait runs out or the lock is unreachable — by loading
// without it.
func (c *Client[V]) rebuild(ctx context.Context, id string, load Loader[V], hot bool) (entry[V], error) {
	lockKey := c.name + ":" + id
	deadline := time.Now().Add(c.cfg.LockWait)
	waited := false
	for {
		token, locked, err := c.mutex.TryLock(ctx, lockKey, c.cfg.LockTTL)
		if err != nil {
			c.log.WarnContext(ctx, "cache lock unavailable; loading without it",
				"cache", c.name, "id", id, "err", err)
			return c.loadAndStore(ctx, id, load, hot)
		}
		if locked {
			return c.rebuildLocked(ctx, id, load, hot, lockKey, token)
		}
		if !waited {
			c.metrics.LockWait(c.name)
			waited = true
		}
		left := time.Until(deadline)
		if left <= 0 {
			return c.loadAndStore(ctx, id, load, hot)
		}
		if err := sleep(ctx, min(c.cfg.LockRetry, left)); err != nil {
			return entry[V]{}, fmt.Errorf("cache %s: wait for %q: %w", c.name, id, err)
		}
		if s, ok := c.readRemote(ctx, id, hot); ok {
			return s.entry, nil
		}
	}
}

func (c *Client[V]) rebuildLocked(ctx context.Context, id string, load Loader[V], hot bool, lockKey, token string) (entry[V], error) {
	defer c.unlock(ctx, lockKey, token)
	// The previous holder may have filled it between our miss and our lock.
	if s, ok := c.readRemote(ctx, id, hot); ok {
		return s.entry, nil
	}
	return c.loadAndStore(ctx, id, load, hot)
}

func (c *Client[V]) unlock(ctx context.Context, lockKey, token string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	err := c.mutex.Unlock(ctx, lockKey, token)
	switch {
	case errors.Is(err, ErrLockNotHeld):
		c.log.DebugContext(ctx, "cache lock expired before its holder finished", "cache", c.name, "key", lockKey)
	case err != nil:
		c.log.WarnContext(ctx, "cache unlock failed; the lock will expire", "cache", c.name, "key", lockKey, "err", err)
	}
}

func (c *Client[V]) loadAndStore(ctx context.Context, id string, load Loader[V], hot bool) (entry[V], error) {
	c.metrics.Load(c.name)
	v, found, err := load(ctx)
	if err != nil {
		return entry[V]{}, fmt.Errorf("cache %s: load %q: %w", c.name, id, err)
	}
	e := entry[V]{found: found}
	if found {
		e.value = v
	}
	c.store(ctx, id, e, hot)
	return e, nil
}

// refreshAsync reloads a stale hot value in the background, at most once at a time per
// process; the Mutex makes it once per cluster.
func (c *Client[V]) refreshAsync(id string, load Loader[V]) {
	if _, running := c.refreshing.LoadOrStore(id, struct{}{}); running {
		return
	}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		c.refreshing.Delete(id)
		return
	}
	c.wg.Add(1)
	c.mu.Unlock()
	go func() {
		defer c.wg.Done()
		defer c.refreshing.Delete(id)
		defer func() {
			if p := recover(); p != nil {
				c.log.Error("cache refresh panicked", "cache", c.name, "id", id, "panic", p)
			}
		}()
		ctx, cancel := context.WithTimeout(c.bg, c.cfg.LockTTL)
		defer cancel()
		c.refresh(ctx, id, load)
	}()
}

func (c *Client[V]) refresh(ctx context.Context, id string, load Loader[V]) {
	lockKey := c.name + ":" + id
	token, locked, err := c.mutex.TryLock(ctx, lockKey, c.cfg.LockTTL)
	if err != nil {
		c.log.WarnContext(ctx, "cache lock unavailable; hot value not refreshed", "cache", c.name, "id", id, "err", err)
		return
	}
	if !locked {
		return // another process is refreshing it
	}
	defer c.unlock(ctx, lockKey, token)
	if s, ok := c.readRemote(ctx, id, true); ok && !s.stale(time.Now()) {
		return // refreshed between our read and our lock
	}
	if _, err := c.loadAndStore(ctx, id, load, true); err != nil {
		c.log.WarnContext(ctx, "cache refresh failed; serving the stale value", "cache", c.name, "id", id, "err", err)
	}
}

// readRemote returns the L2 entry, or ok false on a miss, an L2 failure (logged) or an
// undecodable entry (logged; it will be overwritten by the rebuild).
func (c *Client[V]) readRemote(ctx context.Context, id string, hot bool) (stored[V], bool) {
	key := c.remoteKey(id, hot)
	data, ok, err := c.remote.Get(ctx, key)
	if err != nil {
		c.log.WarnContext(ctx, "cache L2 read failed; treating as a miss", "cache", c.name, "key", key, "err", err)
		return stored[V]{}, false
	}
	if !ok {
		return stored[V]{}, false
	}
	s, err := c.decode(data, hot)
	if err != nil {
		c.log.WarnContext(ctx, "cache L2 entry undecodable; reloading", "cache", c.name, "key", key, "err", err)
		return stored[V]{}, false
	}
	return s, true
}

// L2 formats: empty is "not found"; otherwise the codec's bytes, for hot values
// preceded by "<fresh-until, Unix ms>:".
func (c *Client[V]) decode(data []byte, hot bool) (stored[V], error) {
	var s stored[V]
	if len(data) == 0 {
		return s, nil
	}
	if hot {
		i := bytes.IndexByte(data, ':')
		if i < 0 {
			return s, errors.New("hot entry without expiry")
		}
		ms, err := strconv.ParseInt(string(data[:i]), 10, 64)
		if err != nil {
			return s, fmt.Errorf("hot entry expiry: %w", err)
		}
		s.expiresAt = time.UnixMilli(ms)
		data = data[i+1:]
	}
	v, err := c.codec.Unmarshal(data)
	if err != nil {
		return stored[V]{}, err
	}
	s.value, s.found = v, true
	return s, nil
}

// store writes e to L2; failures are logged, as the value read is still good to return.
func (c *Client[V]) store(ctx context.Context, id string, e entry[V], hot bool) {
	key := c.remoteKey(id, hot)
	data, ttl := []byte{}, c.jitter(c.cfg.NullTTL)
	if e.found {
		payload, err := c.codec.Marshal(e.value)
		if err == nil && len(payload) == 0 {
			err = errors.New("codec produced empty output")
		}
		if err != nil {
			c.log.ErrorContext(ctx, "cache cannot encode value; not cached", "cache", c.name, "key", key, "err", err)
			return
		}
		data, ttl = payload, c.jitter(c.cfg.RemoteTTL)
		if hot {
			fresh := time.Now().Add(c.jitter(c.cfg.LogicalTTL)).UnixMilli()
			data = append(strconv.AppendInt(make([]byte, 0, 16+len(payload)), fresh, 10), ':')
			data, ttl = append(data, payload...), 0
		}
	}
	if err := c.remote.Set(ctx, key, data, ttl); err != nil {
		c.log.WarnContext(ctx, "cache L2 write failed", "cache", c.name, "key", key, "err", err)
	}
}

// toLocal puts e into L1 unless id was invalidated since epoch (read before the L2
// read): the value may then be older than the invalidation.
func (c *Client[V]) toLocal(id string, e entry[V], epoch uint64) {
	if c.local == nil {
		return
	}
	ttl := c.cfg.LocalTTL
	if !e.found {
		ttl = min(ttl, c.cfg.NullTTL)
	}
	ep := c.epoch(id)
	if ep.Load() != epoch {
		return
	}
	key := c.localKey(id)
	c.local.Set(key, e, c.jitter(ttl))
	// An invalidation that slipped in between the check and the Set has already run
	// its Delete, so undo the Set here.
	if ep.Load() != epoch {
		c.local.Delete(key)
	}
}

func (c *Client[V]) onInvalidation(key string) {
	if key == "" {
		for i := range c.epochs {
			c.epochs[i].Add(1)
		}
		c.local.Clear()
		return
	}
	if id, ok := strings.CutPrefix(key, c.name+":"); ok {
		c.drop(id)
	}
}

// drop forgets id in this process: L1 and any read in flight.
func (c *Client[V]) drop(id string) {
	c.epoch(id).Add(1)
	c.flights.Forget("get:" + id)
	c.flights.Forget("hot:" + id)
	if c.local != nil {
		c.local.Delete(c.localKey(id))
	}
}

func (c *Client[V]) epoch(id string) *atomic.Uint64 {
	h := fnv.New32a()
	_, _ = h.Write([]byte(id))
	return &c.epochs[h.Sum32()%uint32(len(c.epochs))]
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

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
