package queue_test

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/queue"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// openAMQPBehindProxy opens an amqp queue that reaches the broker through a fault proxy.
func openAMQPBehindProxy(t *testing.T) (*queue.Queue, *testsupport.FaultProxy) {
	t.Helper()
	direct := testsupport.Require(t, testsupport.EnvAMQP)
	u, err := url.Parse(direct)
	if err != nil {
		t.Fatalf("parse %s: %v", testsupport.EnvAMQP, err)
	}
	proxy := testsupport.StartFaultProxy(t, u.Host)
	u.Host = proxy.Addr()
	cfg := testConfig(t, queue.BackendAMQP)
	cfg.AMQPURL = u.String()
	cfg.Consumers = 4
	t.Cleanup(func() { testsupport.DeleteAMQPQueues(t, direct, cfg.Namespace+"orders", cfg.Namespace+"orders.dead") })
	return openQueue(t, cfg, nil), proxy
}

// closeWithin closes q and fails the test if that takes longer than timeout or fails.
func closeWithin(t *testing.T, q *queue.Queue, timeout time.Duration) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- q.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("close: %v", err)
		}
	case <-time.After(timeout):
		t.Fatalf("close did not return within %v", timeout)
	}
}

func TestAMQPConnectionCut(t *testing.T) {
	t.Parallel()

	t.Run("publishing and consuming resume once the broker is back", func(t *testing.T) {
		t.Parallel()
		q, proxy := openAMQPBehindProxy(t)
		// A backlog the broker confirmed before the cut, mostly not delivered yet.
		before := makeClaims(300)
		publishAll(t, q, before, 10)

		rec := newRecorder()
		started := make(chan struct{})
		cut := make(chan struct{})
		var once sync.Once
		rec.fail = func([]domain.Claim) error {
			once.Do(func() { close(started) })
			<-cut // the first batches finish only after the connection is gone
			return nil
		}
		startConsuming(t, q, rec)
		select {
		case <-started:
		case <-time.After(20 * time.Second):
			t.Fatal("no batch started")
		}

		// Publishers run across the cut: some publishes are in flight when it happens.
		flood := startPublishing(q, 8)
		time.Sleep(200 * time.Millisecond)
		proxy.Cut()
		close(cut)

		// Once the loss is known, a publish fails at once: the message was not sent.
		// (One sent just before that may or may not be queued, and is sent again until
		// the broker is back.)
		time.Sleep(500 * time.Millisecond)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		begin := time.Now()
		if err := q.PublishClaim(ctx, makeClaims(1)[0]); err == nil {
			t.Fatal("a claim was published while the broker was unreachable")
		}
		if took := time.Since(begin); took > 5*time.Second {
			t.Errorf("a publish to an unreachable broker took %v to fail", took)
		}
		time.Sleep(1500 * time.Millisecond)
		proxy.Restore()

		published := flood.count()
		waitUntil(t, 15*time.Second, func() bool { return flood.count() > published+50 },
			func() string { return "publishing did not resume after the broker came back" })
		ok, failed := flood.stop()

		all := slices.Concat(before, ok)
		missing := func() int {
			handled := rec.handledClaims()
			n := 0
			for _, c := range all {
				if _, ok := handled[c.OrderID]; !ok {
					n++
				}
			}
			return n
		}
		waitUntil(t, 60*time.Second, func() bool { return missing() == 0 },
			func() string { return fmt.Sprintf("%d of %d confirmed claims never handled", missing(), len(all)) })
		// A failed publish must not be consumed later: its claim has been given up.
		time.Sleep(time.Second)
		handled := rec.handledClaims()
		for _, c := range failed {
			if _, ok := handled[c.OrderID]; ok {
				t.Errorf("order %d was handled although its publish failed", c.OrderID)
			}
		}
		if n := rec.deadCount(); n != 0 {
			t.Fatalf("dead called %d times, want 0", n)
		}
		t.Logf("%d claims published before the cut, %d around it, %d publishes failed", len(before), len(ok), len(failed))
		closeWithin(t, q, 20*time.Second)
	})

	t.Run("close while the broker is unreachable", func(t *testing.T) {
		t.Parallel()
		q, proxy := openAMQPBehindProxy(t)
		rec := newRecorder()
		startConsuming(t, q, rec)
		// Publishers run across the cut, so that publishes meet the connection in every
		// state of its loss.
		flood := startPublishing(q, 8)
		time.Sleep(300 * time.Millisecond)
		proxy.Cut()
		time.Sleep(time.Second)

		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := q.PublishClaim(ctx, makeClaims(1)[0]); err == nil {
			t.Fatal("a claim was published while the broker was unreachable")
		}
		// Close with publishes under way, some of them waiting to send again.
		closeWithin(t, q, 20*time.Second)
		stopped := make(chan struct{})
		go func() {
			flood.stop()
			close(stopped)
		}()
		select {
		case <-stopped:
		case <-time.After(10 * time.Second):
			t.Fatal("publishes still running 10s after close")
		}
	})
}

// publishFlood publishes fresh claims from several goroutines until stopped.
type publishFlood struct {
	ctx    context.Context
	cancel context.CancelFunc
	halt   chan struct{}
	wg     sync.WaitGroup

	mu     sync.Mutex
	ok     []domain.Claim
	failed []domain.Claim
}

func startPublishing(q *queue.Queue, goroutines int) *publishFlood {
	f := &publishFlood{halt: make(chan struct{})}
	f.ctx, f.cancel = context.WithCancel(context.Background())
	for range goroutines {
		f.wg.Add(1)
		go func() {
			defer f.wg.Done()
			for {
				select {
				case <-f.halt:
					return
				default:
				}
				c := makeClaims(1)[0]
				ctx, cancel := context.WithTimeout(f.ctx, 30*time.Second)
				err := q.PublishClaim(ctx, c)
				cancel()
				f.mu.Lock()
				if err == nil {
					f.ok = append(f.ok, c)
				} else {
					f.failed = append(f.failed, c)
				}
				f.mu.Unlock()
				time.Sleep(2 * time.Millisecond)
			}
		}()
	}
	return f
}

// count is how many publishes succeeded so far.
func (f *publishFlood) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.ok)
}

// stop waits for the publishers to return and reports the claims published and not.
func (f *publishFlood) stop() (ok, failed []domain.Claim) {
	close(f.halt)
	f.wg.Wait()
	f.cancel()
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.ok, f.failed
}
