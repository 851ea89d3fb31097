package redis_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
	"github.com/dealspot/dealspot/internal/readcache"
)

func TestCacheMutexOwnership(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		m := redis.NewCacheMutex(conn.Client)
		token, ok, err := m.TryLock(ctx, "shop:1", time.Minute)
		if err != nil || !ok || token == "" {
			t.Fatalf("first TryLock = %q, %v, %v", token, ok, err)
		}
		if _, ok, err := m.TryLock(ctx, "shop:1", time.Minute); err != nil || ok {
			t.Fatalf("second TryLock = %v, %v; want refused", ok, err)
		}
		if err := m.Unlock(ctx, "shop:1", "not-the-owner"); !errors.Is(err, readcache.ErrLockNotHeld) {
			t.Fatalf("Unlock with a wrong token = %v, want ErrLockNotHeld", err)
		}
		if got := conn.Client.Get(ctx, "lock:shop:1").Val(); got != token {
			t.Fatalf("lock:shop:1 = %q after a wrong Unlock, want the owner's token", got)
		}
		if err := m.Unlock(ctx, "shop:1", token); err != nil {
			t.Fatalf("Unlock by the owner: %v", err)
		}
		if err := m.Unlock(ctx, "shop:1", token); !errors.Is(err, readcache.ErrLockNotHeld) {
			t.Fatalf("second Unlock = %v, want ErrLockNotHeld", err)
		}
		if _, ok, err := m.TryLock(ctx, "shop:1", time.Minute); err != nil || !ok {
			t.Fatalf("TryLock after Unlock = %v, %v", ok, err)
		}
		if _, _, err := m.TryLock(ctx, "shop:2", 0); err == nil {
			t.Error("TryLock accepted a zero TTL")
		}
	})
}

func TestCacheMutexOneWinnerAmongMany(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		m := redis.NewCacheMutex(conn.Client)
		var winners atomic.Int64
		var wg sync.WaitGroup
		start := make(chan struct{})
		for range 100 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				_, ok, err := m.TryLock(context.Background(), "shop:5", time.Minute)
				if err != nil {
					t.Error(err)
				}
				if ok {
					winners.Add(1)
				}
			}()
		}
		close(start)
		wg.Wait()
		if winners.Load() != 1 {
			t.Errorf("winners = %d, want 1", winners.Load())
		}
	})
}

func TestCacheMutexExpiresByItself(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		redistest.SkipWithoutExpiry(t, conn.Client)
		ctx := context.Background()
		m := redis.NewCacheMutex(conn.Client)
		stale, ok, err := m.TryLock(ctx, "shop:1", 100*time.Millisecond)
		if err != nil || !ok {
			t.Fatalf("TryLock = %v, %v", ok, err)
		}
		time.Sleep(200 * time.Millisecond)
		next, ok, err := m.TryLock(ctx, "shop:1", time.Minute)
		if err != nil || !ok {
			t.Fatalf("TryLock after expiry = %v, %v; want it free", ok, err)
		}
		// The first holder, late, must not release the next holder's lock.
		if err := m.Unlock(ctx, "shop:1", stale); !errors.Is(err, readcache.ErrLockNotHeld) {
			t.Fatalf("late Unlock = %v, want ErrLockNotHeld", err)
		}
		if got := conn.Client.Get(ctx, "lock:shop:1").Val(); got != next {
			t.Errorf("lock:shop:1 = %q, want the next holder's token", got)
		}
	})
}
