package readcache

import (
	"context"
	"time"
)

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
