package queue_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/queue"
	"github.com/dealspot/dealspot/internal/domain"
)

func TestQueueLifecycle(t *testing.T) {
	t.Parallel()

	t.Run("claims published before a consumer runs are held in memory", func(t *testing.T) {
		t.Parallel()
		q := openQueue(t, testConfig(t, queue.BackendMemory), nil)
		claims := makeClaims(30)
		publishAll(t, q, claims, 3)
		rec := newRecorder()
		startConsuming(t, q, rec)
		waitUntil(t, 10*time.Second, func() bool { return rec.handledCount() == len(claims) },
			func() string { return fmt.Sprintf("%d of %d handled", rec.handledCount(), len(claims)) })
	})

	t.Run("a claim without ids is refused", func(t *testing.T) {
		t.Parallel()
		q := openQueue(t, testConfig(t, queue.BackendMemory), nil)
		if err := q.PublishClaim(context.Background(), domain.Claim{OrderID: 1, UserID: 2}); err == nil {
			t.Fatal("claim without voucher accepted")
		}
	})

	t.Run("one consumer at a time, none after close", func(t *testing.T) {
		t.Parallel()
		q := openQueue(t, testConfig(t, queue.BackendMemory), nil)
		rec := newRecorder()
		stop := startConsuming(t, q, rec)
		time.Sleep(50 * time.Millisecond)
		if err := q.Consume(context.Background(), rec.handle, rec.deadFn); err == nil {
			t.Fatal("second concurrent Consume accepted")
		}
		stop()
		if err := q.Close(); err != nil {
			t.Fatalf("close: %v", err)
		}
		if err := q.Close(); err != nil {
			t.Fatalf("second close: %v", err)
		}
		if err := q.Consume(context.Background(), rec.handle, rec.deadFn); !errors.Is(err, queue.ErrClosed) {
			t.Fatalf("Consume after Close = %v, want ErrClosed", err)
		}
		if err := q.PublishClaim(context.Background(), makeClaims(1)[0]); !errors.Is(err, queue.ErrClosed) {
			t.Fatalf("PublishClaim after Close = %v, want ErrClosed", err)
		}
	})

	t.Run("close stops a running consumer", func(t *testing.T) {
		t.Parallel()
		q := openQueue(t, testConfig(t, queue.BackendMemory), nil)
		rec := newRecorder()
		done := make(chan error, 1)
		go func() { done <- q.Consume(context.Background(), rec.handle, rec.deadFn) }()
		time.Sleep(50 * time.Millisecond)
		if err := q.Close(); err != nil {
			t.Fatalf("close: %v", err)
		}
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("Consume returned %v after Close, want nil", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("Consume still running after Close")
		}
	})

	t.Run("the redis backend needs a connection", func(t *testing.T) {
		t.Parallel()
		if _, err := queue.Open(context.Background(), testConfig(t, queue.BackendRedis), nil, nil); err == nil {
			t.Fatal("opened without a connection")
		}
	})
}
