package readcache

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// stored is an L2 entry: expiresAt is the logical expiry of hot values (zero otherwise).
type stored[V any] struct {
	entry[V]
	expiresAt time.Time
}

func (s stored[V]) stale(now time.Time) bool {
	return s.found && !s.expiresAt.IsZero() && !now.Before(s.expiresAt)
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
