package readcache

import (
	"context"
	"errors"
	"fmt"
	"time"
)

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
