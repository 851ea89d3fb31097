package redis_test

import (
	"context"
	"net"
	"sync"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// testChannel returns a channel of the test's own: Pub/Sub channels are server-wide.
func testChannel() string { return "cache:invalidate:test:" + testsupport.RandomSuffix(10) }

// received collects what a subscription hands over.
type received chan string

func (r received) handle(key string) { r <- key }

func (r received) next(t *testing.T) string {
	t.Helper()
	select {
	case k := <-r:
		return k
	case <-time.After(3 * time.Second):
		t.Fatal("no invalidation arrived")
		return ""
	}
}

func (r received) none(t *testing.T) {
	t.Helper()
	select {
	case k := <-r:
		t.Fatalf("unexpected invalidation %q", k)
	case <-time.After(100 * time.Millisecond):
	}
}

func TestCacheInvalidationsReachEverySubscriber(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		channel := testChannel()
		pub := redis.NewCacheInvalidations(conn.Client, channel)
		subs := []received{make(received, 10), make(received, 10)}
		stops := make([]func(), len(subs))
		for i, r := range subs {
			rc := conn.NewClient()
			defer rc.Close()
			stop, err := redis.NewCacheInvalidations(rc, channel).Subscribe(ctx, r.handle)
			if err != nil {
				t.Fatalf("Subscribe: %v", err)
			}
			defer stop()
			stops[i] = stop
		}
		if err := pub.Publish(ctx, "shop:42"); err != nil {
			t.Fatalf("Publish: %v", err)
		}
		for i, r := range subs {
			if got := r.next(t); got != "shop:42" {
				t.Errorf("subscriber %d got %q, want shop:42", i, got)
			}
		}

		stops[0]()
		stops[0]() // stopping twice is harmless
		if err := pub.Publish(ctx, "shop:43"); err != nil {
			t.Fatalf("Publish: %v", err)
		}
		if got := subs[1].next(t); got != "shop:43" {
			t.Errorf("remaining subscriber got %q, want shop:43", got)
		}
		subs[0].none(t)
	})
}

func TestCacheInvalidationsChannelsAreSeparate(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		r := make(received, 10)
		stop, err := redis.NewCacheInvalidations(conn.Client, testChannel()).Subscribe(ctx, r.handle)
		if err != nil {
			t.Fatal(err)
		}
		defer stop()
		if err := redis.NewCacheInvalidations(conn.Client, testChannel()).Publish(ctx, "shop:1"); err != nil {
			t.Fatal(err)
		}
		r.none(t)
	})
}

// breakableDialer remembers its connections so a test can cut them.
type breakableDialer struct {
	mu    sync.Mutex
	conns []net.Conn
}

func (d *breakableDialer) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
	if err == nil {
		d.mu.Lock()
		d.conns = append(d.conns, c)
		d.mu.Unlock()
	}
	return c, err
}

func (d *breakableDialer) cut() {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, c := range d.conns {
		_ = c.Close()
	}
	d.conns = nil
}

func TestCacheInvalidationsSurviveABrokenConnection(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		channel := testChannel()
		d := &breakableDialer{}
		var rc goredis.UniversalClient
		switch c := conn.Client.(type) {
		case *goredis.ClusterClient:
			opts := *c.Options()
			opts.Dialer = d.dial
			rc = goredis.NewClusterClient(&opts)
		case *goredis.Client:
			opts := *c.Options()
			opts.Dialer = d.dial
			rc = goredis.NewClient(&opts)
		}
		defer rc.Close()
		r := make(received, 10)
		stop, err := redis.NewCacheInvalidations(rc, channel).Subscribe(ctx, r.handle)
		if err != nil {
			t.Fatal(err)
		}
		defer stop()
		pub := redis.NewCacheInvalidations(conn.Client, channel)

		d.cut()
		// The subscriber is told that it may have missed some, then keeps receiving.
		if got := r.next(t); got != "" {
			t.Fatalf("after the cut got %q, want the reset signal \"\"", got)
		}
		if err := pub.Publish(ctx, "shop:7"); err != nil {
			t.Fatal(err)
		}
		if got := r.next(t); got != "shop:7" {
			t.Errorf("after reconnecting got %q, want shop:7", got)
		}
	})
}
