package readcache_test

import (
	"context"
	"errors"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
	"github.com/dealspot/dealspot/internal/readcache"
)

func TestGet_ThousandReadersOfAColdKeyCauseOneLoad(t *testing.T) {
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		src := newSource()
		src.put("42", "Tea House")
		src.setDelay(50 * time.Millisecond)
		n := newCluster(conn).node(t, readcache.DefaultConfig(), nil)

		var wrong atomic.Int64
		concurrently(1000, func(int) {
			v, found, err := n.cache.Get(context.Background(), "42", src.loader("42"))
			if err != nil || !found || v.Name != "Tea House" {
				wrong.Add(1)
			}
		})
		if got := src.loads.Load(); got != 1 {
			t.Errorf("loads = %d, want 1", got)
		}
		if wrong.Load() != 0 {
			t.Errorf("%d readers got a wrong answer", wrong.Load())
		}
	})
}

func TestGet_TwoNodesSharingRedisLoadOnce(t *testing.T) {
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		src := newSource()
		src.put("7", "Noodle Bar")
		src.setDelay(50 * time.Millisecond)
		cl := newCluster(conn)
		nodes := []*node{cl.node(t, readcache.DefaultConfig(), nil), cl.node(t, readcache.DefaultConfig(), nil)}

		var wrong atomic.Int64
		concurrently(200, func(i int) {
			v, found, err := nodes[i%2].cache.Get(context.Background(), "7", src.loader("7"))
			if err != nil || !found || v.Name != "Noodle Bar" {
				wrong.Add(1)
			}
		})
		if got := src.loads.Load(); got != 1 {
			t.Errorf("loads across both nodes = %d, want 1", got)
		}
		if wrong.Load() != 0 {
			t.Errorf("%d readers got a wrong answer", wrong.Load())
		}
	})
}

func TestGet_MissingIDIsLoadedOncePerNullTTL(t *testing.T) {
	for _, tc := range []struct {
		name     string
		localTTL time.Duration
	}{
		{"l1 and l2", time.Minute},
		{"l2 only", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
				ctx := context.Background()
				cl := newCluster(conn)
				cfg := readcache.DefaultConfig()
				cfg.LocalTTL = tc.localTTL

				t.Run("10,000 reads, one load", func(t *testing.T) {
					cfg := cfg
					cfg.NullTTL = 10 * time.Second
					src := newSource()
					n := cl.node(t, cfg, nil)
					start := time.Now()
					var found atomic.Int64
					concurrently(8, func(int) {
						for range 10_000 / 8 {
							_, ok, err := n.cache.Get(ctx, "404", src.loader("404"))
							if err != nil {
								t.Error(err)
								return
							}
							if ok {
								found.Add(1)
							}
						}
					})
					if elapsed := time.Since(start); elapsed >= cfg.NullTTL {
						t.Fatalf("10,000 reads took %s, longer than the null TTL", elapsed)
					}
					if found.Load() != 0 {
						t.Errorf("%d reads found a missing id", found.Load())
					}
					if got := src.loads.Load(); got != 1 {
						t.Errorf("loads = %d, want 1", got)
					}
				})

				t.Run("loaded again after the null TTL", func(t *testing.T) {
					cfg := cfg
					cfg.NullTTL = 300 * time.Millisecond
					src := newSource()
					n := cl.node(t, cfg, nil)
					redistest.SkipWithoutExpiry(t, n.rc)
					for range 2 {
						if _, ok, err := n.cache.Get(ctx, "405", src.loader("405")); err != nil || ok {
							t.Fatalf("Get = found %v, err %v", ok, err)
						}
					}
					if got := src.loads.Load(); got != 1 {
						t.Fatalf("loads within the null TTL = %d, want 1", got)
					}
					time.Sleep(time.Duration(float64(cfg.NullTTL)*(1+cfg.Jitter)) + 50*time.Millisecond)
					if _, ok, err := n.cache.Get(ctx, "405", src.loader("405")); err != nil || ok {
						t.Fatalf("Get after the null TTL = found %v, err %v", ok, err)
					}
					if got := src.loads.Load(); got != 2 {
						t.Errorf("loads after the null TTL = %d, want 2", got)
					}
				})
			})
		})
	}
}

func TestGet_InvalidIDsCauseNoIO(t *testing.T) {
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		src := newSource()
		n := newCluster(conn).node(t, readcache.DefaultConfig(), nil)
		for _, id := range []string{"", "-1", "0", "abc", "1 OR 1=1"} {
			if _, ok, err := n.cache.Get(context.Background(), id, src.loader(id)); ok || err != nil {
				t.Errorf("Get(%q) = found %v, err %v; want not found", id, ok, err)
			}
		}
		if got := src.loads.Load(); got != 0 {
			t.Errorf("loads = %d, want 0", got)
		}
		if keys, _ := conn.Client.Keys(context.Background(), "cache:*").Result(); len(keys) != 0 {
			t.Errorf("cache keys written for invalid ids: %v", keys)
		}
	})
}

func TestInvalidate_OtherNodeServesNewValueWithinASecond(t *testing.T) {
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		cfg := readcache.DefaultConfig()
		cfg.LocalTTL = time.Minute
		src := newSource()
		src.put("5", "Old Name")
		cl := newCluster(conn)
		a, b := cl.node(t, cfg, nil), cl.node(t, cfg, nil)
		ctx := context.Background()
		for _, n := range []*node{a, b} {
			if v, _, err := n.cache.Get(ctx, "5", src.loader("5")); err != nil || v.Name != "Old Name" {
				t.Fatalf("warm-up Get = %+v, %v", v, err)
			}
		}

		src.put("5", "New Name") // the database write, then the invalidation
		if err := a.cache.Invalidate(ctx, "5"); err != nil {
			t.Fatalf("Invalidate: %v", err)
		}
		if v, _, err := a.cache.Get(ctx, "5", src.loader("5")); err != nil || v.Name != "New Name" {
			t.Errorf("invalidating node reads %+v, %v; want the new value at once", v, err)
		}
		start := time.Now()
		ok := eventually(time.Second, func() bool {
			v, _, err := b.cache.Get(ctx, "5", src.loader("5"))
			return err == nil && v.Name == "New Name"
		})
		if !ok {
			t.Fatalf("other node still serves the old value a second after Invalidate")
		}
		t.Logf("other node served the new value after %s", time.Since(start))
	})
}

func TestGetHot_StaleValueServedWhileOneRefreshRuns(t *testing.T) {
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		const logicalTTL = 300 * time.Millisecond
		cfg := readcache.DefaultConfig()
		cfg.LocalTTL, cfg.LogicalTTL = 20*time.Millisecond, logicalTTL
		src := newSource()
		src.put("1", "v1")
		src.setDelay(20 * time.Millisecond)
		cl := newCluster(conn)
		nodes := []*node{cl.node(t, cfg, nil), cl.node(t, cfg, nil)}
		ctx := context.Background()

		// A missing hot key is loaded once, synchronously.
		var wrong atomic.Int64
		concurrently(200, func(i int) {
			v, _, err := nodes[i%2].cache.GetHot(ctx, "1", src.loader("1"))
			if err != nil || v.Name != "v1" {
				wrong.Add(1)
			}
		})
		if got := src.loads.Load(); got != 1 {
			t.Fatalf("loads of the cold hot key = %d, want 1", got)
		}
		if wrong.Load() != 0 {
			t.Fatalf("%d readers of the cold hot key got a wrong answer", wrong.Load())
		}
		if ttl, _ := conn.Client.PTTL(ctx, "cache:shop:hot:1").Result(); ttl != -1 {
			t.Errorf("hot key PTTL = %s, want none (logical expiry only)", ttl)
		}

		// Once logically expired, every reader gets the old value at once while a
		// single refresh is held up in the loader.
		time.Sleep(logicalTTL*11/10 + 30*time.Millisecond)
		src.put("1", "v2")
		release := src.hold()
		defer release()
		concurrently(200, func(i int) {
			rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			defer cancel()
			v, _, err := nodes[i%2].cache.GetHot(rctx, "1", src.loader("1"))
			if err != nil || v.Name != "v1" {
				wrong.Add(1)
			}
		})
		if wrong.Load() != 0 {
			t.Fatalf("%d readers of the stale hot key did not get the stale value at once", wrong.Load())
		}
		if !eventually(time.Second, func() bool { return src.loads.Load() == 2 }) {
			t.Fatalf("refresh did not start: loads = %d, want 2", src.loads.Load())
		}
		release()

		if !eventually(time.Second, func() bool {
			v0, _, err0 := nodes[0].cache.GetHot(ctx, "1", src.loader("1"))
			v1, _, err1 := nodes[1].cache.GetHot(ctx, "1", src.loader("1"))
			return err0 == nil && err1 == nil && v0.Name == "v2" && v1.Name == "v2"
		}) {
			t.Fatal("readers do not see the refreshed value")
		}
		if got := src.loads.Load(); got != 2 {
			t.Errorf("loads = %d, want 2 (one initial load, one refresh)", got)
		}
	})
}

func TestGet_TTLsAreJittered(t *testing.T) {
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		cfg := readcache.DefaultConfig()
		cfg.LocalTTL, cfg.RemoteTTL, cfg.NullTTL, cfg.Jitter = 0, time.Minute, 20*time.Second, 0.2
		src := newSource()
		n := newCluster(conn).node(t, cfg, nil)
		ctx := context.Background()
		start := time.Now()
		check := func(what string, ttl time.Duration, ids []string) {
			t.Helper()
			lo, hi := time.Duration(1<<62), time.Duration(0)
			for _, id := range ids {
				got, err := conn.Client.PTTL(ctx, "cache:shop:"+id).Result()
				if err != nil {
					t.Fatal(err)
				}
				// A real server counts down while the test runs: allow for all the time
				// since the first SET, however slow the machine.
				if got < ttl-time.Since(start) || got > time.Duration(float64(ttl)*(1+cfg.Jitter)) {
					t.Errorf("%s %s: PTTL %s outside [%s, %s]", what, id, got, ttl, time.Duration(float64(ttl)*(1+cfg.Jitter)))
				}
				lo, hi = min(lo, got), max(hi, got)
			}
			if hi-lo < ttl/100 {
				t.Errorf("%s TTLs span only %s..%s: no jitter", what, lo, hi)
			}
		}
		var found, missing []string
		for i := 1; i <= 50; i++ {
			id := strconv.Itoa(i)
			if i%2 == 0 {
				src.put(id, "shop "+id)
				found = append(found, id)
			} else {
				missing = append(missing, id)
			}
			if _, _, err := n.cache.Get(ctx, id, src.loader(id)); err != nil {
				t.Fatal(err)
			}
		}
		check("value", cfg.RemoteTTL, found)
		check("null", cfg.NullTTL, missing)
	})
}

func TestGet_HeldLockDelaysButNeverFailsARead(t *testing.T) {
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		// Another process took the lock and died without filling the cache.
		if _, ok, err := redis.NewCacheMutex(conn.Client).TryLock(ctx, "shop:3", time.Minute); err != nil || !ok {
			t.Fatalf("TryLock = %v, %v", ok, err)
		}
		cfg := readcache.DefaultConfig()
		cfg.LockWait = 150 * time.Millisecond
		src := newSource()
		src.put("3", "Dumplings")
		m := newCounters()
		n := newCluster(conn).node(t, cfg, m)

		start := time.Now()
		v, found, err := n.cache.Get(ctx, "3", src.loader("3"))
		if err != nil || !found || v.Name != "Dumplings" {
			t.Fatalf("Get = %+v, %v, %v", v, found, err)
		}
		if waited := time.Since(start); waited < cfg.LockWait {
			t.Errorf("Get returned after %s, before the lock wait of %s ran out", waited, cfg.LockWait)
		}
		if got := src.loads.Load(); got != 1 {
			t.Errorf("loads = %d, want 1", got)
		}
		if got := m.get("lockwait"); got != 1 {
			t.Errorf("lock waits = %d, want 1", got)
		}
	})
}

func TestGet_WaiterPicksUpTheHoldersResult(t *testing.T) {
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		mutex := redis.NewCacheMutex(conn.Client)
		token, ok, err := mutex.TryLock(ctx, "shop:8", time.Minute)
		if err != nil || !ok {
			t.Fatalf("TryLock = %v, %v", ok, err)
		}
		src := newSource()
		src.put("8", "from the database")
		n := newCluster(conn).node(t, readcache.DefaultConfig(), nil)
		// The holder fills L2 and releases while the node waits.
		go func() {
			time.Sleep(100 * time.Millisecond)
			_ = redis.NewCacheStore(conn.Client).Set(ctx, "shop:8", []byte(`{"id":8,"name":"from the holder"}`), time.Minute)
			_ = mutex.Unlock(ctx, "shop:8", token)
		}()
		v, _, err := n.cache.Get(ctx, "8", src.loader("8"))
		if err != nil || v.Name != "from the holder" {
			t.Errorf("Get = %+v, %v; want the holder's value", v, err)
		}
		if got := src.loads.Load(); got != 0 {
			t.Errorf("loads = %d, want 0", got)
		}
	})
}

func TestGet_CountsHitsAndMissesPerLayer(t *testing.T) {
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		src := newSource()
		src.put("9", "Hotpot")
		cl := newCluster(conn)
		m := newCounters()
		a := cl.node(t, readcache.DefaultConfig(), m)
		for range 3 {
			if _, _, err := a.cache.Get(ctx, "9", src.loader("9")); err != nil {
				t.Fatal(err)
			}
		}
		l2only := readcache.DefaultConfig()
		l2only.LocalTTL = 0
		b := cl.node(t, l2only, m)
		if _, _, err := b.cache.Get(ctx, "9", src.loader("9")); err != nil {
			t.Fatal(err)
		}
		want := map[string]int{"miss l1": 1, "hit l1": 2, "miss l2": 1, "hit l2": 1, "load": 1, "lockwait": 0}
		for k, w := range want {
			if got := m.get(k); got != w {
				t.Errorf("%s = %d, want %d", k, got, w)
			}
		}
	})
}

func TestGet_LoadErrorsAreReturnedAndNotCached(t *testing.T) {
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		n := newCluster(conn).node(t, readcache.DefaultConfig(), nil)
		boom := errors.New("database down")
		var calls atomic.Int64
		failing := func(context.Context) (shop, bool, error) {
			calls.Add(1)
			return shop{}, false, boom
		}
		for range 2 {
			if _, _, err := n.cache.Get(ctx, "11", failing); !errors.Is(err, boom) {
				t.Fatalf("Get error = %v, want %v", err, boom)
			}
		}
		if calls.Load() != 2 {
			t.Errorf("loader calls = %d, want 2 (errors are not cached)", calls.Load())
		}
	})
}

func TestGet_ServesFromTheLoaderWhenRedisIsDown(t *testing.T) {
	down := goredis.NewClient(&goredis.Options{Addr: "127.0.0.1:1", MaxRetries: -1, DialerRetries: 1, DialTimeout: 100 * time.Millisecond})
	defer down.Close()
	c, err := readcache.New[shop](context.Background(), "shop", readcache.Config{LocalTTL: 0}, readcache.Deps{
		Remote: redis.NewCacheStore(down),
		Mutex:  redis.NewCacheMutex(down),
		Logger: quietLogger(),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	src := newSource()
	src.put("1", "still served")
	v, found, err := c.Get(context.Background(), "1", src.loader("1"))
	if err != nil || !found || v.Name != "still served" {
		t.Errorf("Get = %+v, %v, %v; want the loaded value", v, found, err)
	}
}

func TestGet_CallerContextEndsItsWaitOnly(t *testing.T) {
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		src := newSource()
		src.put("12", "Slow Shop")
		src.setDelay(200 * time.Millisecond)
		n := newCluster(conn).node(t, readcache.DefaultConfig(), nil)

		impatient, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		defer cancel()
		done := make(chan error, 1)
		go func() {
			_, _, err := n.cache.Get(impatient, "12", src.loader("12"))
			done <- err
		}()
		v, found, err := n.cache.Get(context.Background(), "12", src.loader("12"))
		if err != nil || !found || v.Name != "Slow Shop" {
			t.Errorf("patient Get = %+v, %v, %v", v, found, err)
		}
		if err := <-done; !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("impatient Get error = %v, want deadline exceeded", err)
		}
		if got := src.loads.Load(); got != 1 {
			t.Errorf("loads = %d, want 1", got)
		}
	})
}

func TestNew_RefusesIncompleteSetups(t *testing.T) {
	rc := goredis.NewClient(&goredis.Options{Addr: "127.0.0.1:1"})
	defer rc.Close()
	remote, mutex := redis.NewCacheStore(rc), redis.NewCacheMutex(rc)
	for _, tc := range []struct {
		name string
		cfg  readcache.Config
		deps readcache.Deps
		id   string
	}{
		{"empty name", readcache.Config{}, readcache.Deps{Remote: remote, Mutex: mutex}, ""},
		{"name with colon", readcache.Config{}, readcache.Deps{Remote: remote, Mutex: mutex}, "a:b"},
		{"no remote", readcache.Config{}, readcache.Deps{Mutex: mutex}, "shop"},
		{"no mutex", readcache.Config{}, readcache.Deps{Remote: remote}, "shop"},
		{"l1 without local", readcache.Config{LocalTTL: time.Second}, readcache.Deps{Remote: remote, Mutex: mutex}, "shop"},
		{"jitter above 1", readcache.Config{Jitter: 2}, readcache.Deps{Remote: remote, Mutex: mutex}, "shop"},
		{"negative ttl", readcache.Config{RemoteTTL: -time.Second}, readcache.Deps{Remote: remote, Mutex: mutex}, "shop"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := readcache.New[shop](context.Background(), tc.id, tc.cfg, tc.deps); err == nil {
				t.Error("New accepted it")
			}
		})
	}
}

// lossyInvalidations delivers nothing by itself; the test plays the transport.
type lossyInvalidations struct{ handle func(string) }

func (l *lossyInvalidations) Publish(context.Context, string) error { return nil }
func (l *lossyInvalidations) Subscribe(_ context.Context, handle func(string)) (func(), error) {
	l.handle = handle
	return func() {}, nil
}

func TestGet_L1IsDroppedWhenInvalidationsMayHaveBeenMissed(t *testing.T) {
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		inv := &lossyInvalidations{}
		local := newLocal(t)
		cfg := readcache.DefaultConfig()
		cfg.LocalTTL = time.Minute
		c, err := readcache.New[shop](ctx, "shop", cfg, readcache.Deps{
			Local: local, Remote: redis.NewCacheStore(conn.Client), Mutex: redis.NewCacheMutex(conn.Client),
			Invalidations: inv, Logger: quietLogger(),
		})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		src := newSource()
		src.put("6", "before")
		if v, _, _ := c.Get(ctx, "6", src.loader("6")); v.Name != "before" {
			t.Fatalf("Get = %+v", v)
		}
		// Another node changes the row and invalidates; its broadcast gets lost.
		src.put("6", "after")
		if err := conn.Client.Del(ctx, "cache:shop:6").Err(); err != nil {
			t.Fatal(err)
		}
		if v, _, _ := c.Get(ctx, "6", src.loader("6")); v.Name != "before" {
			t.Fatalf("Get = %+v; want the L1 copy", v)
		}
		inv.handle("") // the subscription was re-established
		if v, _, _ := c.Get(ctx, "6", src.loader("6")); v.Name != "after" {
			t.Errorf("Get after the reset = %+v; want the new value", v)
		}
		inv.handle("voucher:6") // other caches' keys are ignored
	})
}

// ByID caches row id under its decimal string, so a reader by id and a reader by key see
// one entry, and its Invalidate drops that entry.
func TestByID_KeysByTheIDsDecimalStringAndInvalidates(t *testing.T) {
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		src := newSource()
		src.put("42", "Tea House")
		n := newCluster(conn).node(t, readcache.DefaultConfig(), nil)
		byID := readcache.NewByID(n.cache)
		ctx := context.Background()

		if v, found, err := byID.Get(ctx, 42, src.loader("42")); err != nil || !found || v.Name != "Tea House" {
			t.Fatalf("Get(42) = %+v, %v, %v; want Tea House", v, found, err)
		}
		if v, found, err := n.cache.Get(ctx, "42", src.loader("42")); err != nil || !found || v.Name != "Tea House" {
			t.Fatalf(`Get("42") = %+v, %v, %v; want Tea House`, v, found, err)
		}
		if got := src.loads.Load(); got != 1 {
			t.Fatalf("loads = %d, want 1: id 42 and key \"42\" are one entry", got)
		}

		src.put("42", "Tea Room") // the database write, then the invalidation
		if err := byID.Invalidate(ctx, 42); err != nil {
			t.Fatalf("Invalidate(42): %v", err)
		}
		if v, _, err := n.cache.Get(ctx, "42", src.loader("42")); err != nil || v.Name != "Tea Room" {
			t.Fatalf(`Get("42") after Invalidate(42) = %+v, %v; want Tea Room`, v, err)
		}
		if got := src.loads.Load(); got != 2 {
			t.Fatalf("loads = %d, want 2", got)
		}
	})
}
