package redis

import (
	"context"
	"errors"
	"fmt"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/internal/readcache"
)

// CacheStore is the shared cache layer (L2): one string key per entry,
// cache:<cache name>:<id>, with the entry's TTL as the key's expiry.
type CacheStore struct {
	client goredis.UniversalClient
}

var _ readcache.Remote = (*CacheStore)(nil)

// NewCacheStore returns a CacheStore on client.
func NewCacheStore(client goredis.UniversalClient) *CacheStore {
	return &CacheStore{client: client}
}

func cacheKey(key string) string { return "cache:" + key }

// Get implements readcache.Remote.
func (s *CacheStore) Get(ctx context.Context, key string) ([]byte, bool, error) {
	v, err := s.client.Get(ctx, cacheKey(key)).Bytes()
	if errors.Is(err, goredis.Nil) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("get cache entry %q: %w", key, err)
	}
	return v, true, nil
}

// Set implements readcache.Remote.
func (s *CacheStore) Set(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	if ttl < 0 {
		return fmt.Errorf("set cache entry %q: negative ttl %s", key, ttl)
	}
	if value == nil {
		value = []byte{}
	}
	if err := s.client.Set(ctx, cacheKey(key), value, ttl).Err(); err != nil {
		return fmt.Errorf("set cache entry %q: %w", key, err)
	}
	return nil
}

// Delete implements readcache.Remote. Keys are deleted one command each, so that keys in
// different Redis Cluster slots can be deleted together.
func (s *CacheStore) Delete(ctx context.Context, keys ...string) error {
	if len(keys) == 0 {
		return nil
	}
	_, err := s.client.Pipelined(ctx, func(p goredis.Pipeliner) error {
		for _, k := range keys {
			p.Del(ctx, cacheKey(k))
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("delete cache entries %q: %w", keys, err)
	}
	return nil
}
