package queue_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/queue"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
)

// A publish known not to have queued its claim says so (seckill.ErrNotEnqueued), so the
// claim path may undo the reservation; other failures must not.
func TestPublishClaimSaysWhenTheClaimIsNotQueued(t *testing.T) {
	t.Parallel()

	t.Run("invalid claim, closed queue, ended context", func(t *testing.T) {
		t.Parallel()
		q := openQueue(t, testConfig(t, queue.BackendMemory), nil)
		if err := q.PublishClaim(context.Background(), domain.Claim{}); !errors.Is(err, seckill.ErrNotEnqueued) {
			t.Errorf("invalid claim: %v, want ErrNotEnqueued", err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := q.PublishClaim(ctx, makeClaims(1)[0]); !errors.Is(err, seckill.ErrNotEnqueued) {
			t.Errorf("context ended before the send: %v, want ErrNotEnqueued", err)
		}
		if err := q.Close(); err != nil {
			t.Fatal(err)
		}
		err := q.PublishClaim(context.Background(), makeClaims(1)[0])
		if !errors.Is(err, seckill.ErrNotEnqueued) || !errors.Is(err, queue.ErrClosed) {
			t.Errorf("closed queue: %v, want ErrClosed and ErrNotEnqueued", err)
		}
	})

	t.Run("amqp broker unreachable", func(t *testing.T) {
		t.Parallel()
		q, proxy := openAMQPBehindProxy(t)
		if err := q.PublishClaim(context.Background(), makeClaims(1)[0]); err != nil {
			t.Fatalf("publish: %v", err)
		}
		proxy.Cut()
		defer proxy.Restore()
		// Once the connection's loss is known, a publish is never sent.
		deadline := time.Now().Add(20 * time.Second)
		for {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			err := q.PublishClaim(ctx, makeClaims(1)[0])
			cancel()
			if errors.Is(err, seckill.ErrNotEnqueued) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("publish to an unreachable broker: %v, want ErrNotEnqueued", err)
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
}
