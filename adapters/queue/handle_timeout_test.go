package queue_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/queue"
	"github.com/dealspot/dealspot/internal/domain"
)

// A handler that never returns (a database driver stuck on a dead connection) must not
// hold the workers, and every claim behind them, for good: past twice HandleTimeout its
// batch is answered with an error and retried, and the other claims are written.
func TestStuckHandlerIsAbandoned(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t, queue.BackendMemory)
	cfg.Workers = 2
	cfg.HandleTimeout = 200 * time.Millisecond
	cfg.MaxRetries = 10
	q := openQueue(t, cfg, nil)

	rec := newRecorder()
	release := make(chan struct{})
	defer close(release)
	var (
		mu    sync.Mutex
		stuck int
	)
	// The first two batches hang past their context's end, as a driver that does not
	// watch it would; every later call succeeds.
	rec.fail = func(claims []domain.Claim) error {
		mu.Lock()
		if stuck >= 2 {
			mu.Unlock()
			return nil
		}
		stuck++
		mu.Unlock()
		<-release
		return nil
	}
	startConsuming(t, q, rec)
	claims := makeClaims(40)
	publishAll(t, q, claims, 4)
	waitUntil(t, 30*time.Second, func() bool { return rec.handledCount() == len(claims) },
		func() string {
			return fmt.Sprintf("%d of %d handled, %d batches abandoned", rec.handledCount(), len(claims), q.AbandonedBatches())
		})
	if n := q.AbandonedBatches(); n != 2 {
		t.Errorf("abandoned batches = %d, want 2", n)
	}
}

// A handler that watches its context gets it cancelled after HandleTimeout, and its
// claims are retried.
func TestHandleTimeoutCancelsTheBatch(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t, queue.BackendMemory)
	cfg.HandleTimeout = 100 * time.Millisecond
	q := openQueue(t, cfg, nil)

	var (
		mu        sync.Mutex
		cancelled int
		started   atomic.Bool
		handled   = map[int64]bool{}
	)
	handle := func(ctx context.Context, claims []domain.Claim) error {
		// Only the first batch to start waits (two workers may start two at once).
		if started.CompareAndSwap(false, true) {
			<-ctx.Done() // the first batch waits, as a statement blocked on a lock would
			mu.Lock()
			cancelled++
			mu.Unlock()
			return ctx.Err()
		}
		mu.Lock()
		defer mu.Unlock()
		for _, c := range claims {
			handled[c.OrderID] = true
		}
		return nil
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- q.Consume(ctx, handle, func(context.Context, domain.Claim, error) {}) }()
	t.Cleanup(func() { stop(); <-done })
	claims := makeClaims(10)
	publishAll(t, q, claims, 2)
	waitUntil(t, 30*time.Second, func() bool { mu.Lock(); defer mu.Unlock(); return len(handled) == len(claims) },
		func() string {
			mu.Lock()
			defer mu.Unlock()
			return fmt.Sprintf("%d of %d handled", len(handled), len(claims))
		})
	mu.Lock()
	defer mu.Unlock()
	if cancelled != 1 {
		t.Errorf("cancelled batches = %d, want 1", cancelled)
	}
	if n := q.AbandonedBatches(); n != 0 {
		t.Errorf("abandoned batches = %d, want 0 (the handler returned when cancelled)", n)
	}
}
