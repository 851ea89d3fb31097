package readcache_test

import (
	"context"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/adapters/localcache"
	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/internal/readcache"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// shop stands for any cached row.
type shop struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// source is the "database": rows by id, with a count of loads.
type source struct {
	mu    sync.Mutex
	rows  map[string]shop
	delay time.Duration
	gate  chan struct{} // when set, loads wait until it is closed
	loads atomic.Int64
}

func newSource() *source { return &source{rows: map[string]shop{}} }

func (s *source) put(id string, name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, _ := strconv.ParseInt(id, 10, 64)
	s.rows[id] = shop{ID: n, Name: name}
}

func (s *source) setDelay(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.delay = d
}

// hold makes later loads wait until the returned release is called.
func (s *source) hold() (release func()) {
	gate := make(chan struct{})
	s.mu.Lock()
	s.gate = gate
	s.mu.Unlock()
	return sync.OnceFunc(func() { close(gate) })
}

func (s *source) loader(id string) readcache.Loader[shop] {
	return func(ctx context.Context) (shop, bool, error) {
		s.loads.Add(1)
		s.mu.Lock()
		gate, delay := s.gate, s.delay
		s.mu.Unlock()
		if gate != nil {
			select {
			case <-gate:
			case <-ctx.Done():
				return shop{}, false, ctx.Err()
			}
		}
		if delay > 0 {
			time.Sleep(delay)
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		r, ok := s.rows[id]
		return r, ok, nil
	}
}

func validID(id string) bool {
	n, err := strconv.ParseInt(id, 10, 64)
	return err == nil && n > 0
}

// node is one server's view of the cache: its own Redis client, L1 and single-flight,
// sharing Redis (and the invalidation channel) with the other nodes of a test.
type node struct {
	cache *readcache.Client[shop]
	rc    goredis.UniversalClient
}

type cluster struct {
	conn    *redis.Conn
	channel string
}

func newCluster(conn *redis.Conn) *cluster {
	// Pub/Sub channels are server-wide, so each test gets its own.
	return &cluster{conn: conn, channel: "cache:invalidate:test:" + testsupport.RandomSuffix(10)}
}

// node starts a node with its own Redis client, L1 and single-flight.
func (cl *cluster) node(t testing.TB, cfg readcache.Config, metrics readcache.Metrics) *node {
	t.Helper()
	rc := cl.conn.NewClient()
	t.Cleanup(func() { _ = rc.Close() })
	local := newLocal(t)
	c, err := readcache.New(context.Background(), "shop", cfg, readcache.Deps{
		Local:         local,
		Remote:        redis.NewCacheStore(rc),
		Mutex:         redis.NewCacheMutex(rc),
		Invalidations: redis.NewCacheInvalidations(rc, cl.channel),
		Metrics:       metrics,
		Logger:        quietLogger(),
	}, readcache.WithValid[shop](validID))
	if err != nil {
		t.Fatalf("new cache: %v", err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return &node{cache: c, rc: rc}
}

// counters is a readcache.Metrics that counts.
type counters struct {
	mu sync.Mutex
	n  map[string]int
}

func newCounters() *counters { return &counters{n: map[string]int{}} }

func (c *counters) add(k string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n[k]++
}

func (c *counters) get(k string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[k]
}

func (c *counters) Hit(_ string, l readcache.Layer)  { c.add("hit " + string(l)) }
func (c *counters) Miss(_ string, l readcache.Layer) { c.add("miss " + string(l)) }
func (c *counters) Load(string)                      { c.add("load") }
func (c *counters) LockWait(string)                  { c.add("lockwait") }

// concurrently runs fn(i) for i in [0, n) on n goroutines released at once.
func concurrently(n int, fn func(i int)) {
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			fn(i)
		}()
	}
	close(start)
	wg.Wait()
}

// eventually polls cond every 10ms until it holds or d passes.
func eventually(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func quietLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }

func newLocal(t testing.TB) *localcache.Cache {
	t.Helper()
	local, err := localcache.New(10_000)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(local.Close)
	return local
}
