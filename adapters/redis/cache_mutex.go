package redis

import (
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"fmt"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/internal/readcache"
)

var (
	//go:embed lua/cache_unlock.lua
	cacheUnlockLua    string
	cacheUnlockScript = goredis.NewScript(cacheUnlockLua)
)

// CacheMutex is the cache's rebuild lock: lock:<cache name>:<id> holds the owner's
// random token (SET NX PX) and is released by compare-and-delete.
type CacheMutex struct {
	client goredis.UniversalClient
}

var _ readcache.Mutex = (*CacheMutex)(nil)

// NewCacheMutex returns a CacheMutex on client.
func NewCacheMutex(client goredis.UniversalClient) *CacheMutex {
	return &CacheMutex{client: client}
}

func lockKey(key string) string { return "lock:" + key }

// TryLock implements readcache.Mutex.
func (m *CacheMutex) TryLock(ctx context.Context, key string, ttl time.Duration) (string, bool, error) {
	if ttl <= 0 {
		return "", false, fmt.Errorf("lock %q: ttl must be positive", key)
	}
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	token := hex.EncodeToString(b)
	ok, err := m.client.SetNX(ctx, lockKey(key), token, ttl).Result()
	if err != nil {
		return "", false, fmt.Errorf("lock %q: %w", key, err)
	}
	if !ok {
		return "", false, nil
	}
	return token, true, nil
}

// Unlock implements readcache.Mutex.
func (m *CacheMutex) Unlock(ctx context.Context, key, token string) error {
	n, err := cacheUnlockScript.Run(ctx, m.client, []string{lockKey(key)}, token).Int()
	if err != nil {
		return fmt.Errorf("unlock %q: %w", key, err)
	}
	if n == 0 {
		return fmt.Errorf("unlock %q: %w", key, readcache.ErrLockNotHeld)
	}
	return nil
}
