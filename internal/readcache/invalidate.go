package readcache

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"strings"
	"sync/atomic"
)

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
