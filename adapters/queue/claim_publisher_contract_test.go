package queue_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/queue"
	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/app/seckill/seckilltest"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// claimsReceived consumes q and hands every claim its handler gets to the channel it
// returns, until the test ends.
func claimsReceived(t *testing.T, q *queue.Queue) <-chan domain.Claim {
	t.Helper()
	received := make(chan domain.Claim, 1024)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- q.Consume(ctx, func(_ context.Context, claims []domain.Claim) error {
			for _, c := range claims {
				select {
				case received <- c:
				default:
				}
			}
			return nil
		}, func(context.Context, domain.Claim, error) {})
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil && !errors.Is(err, queue.ErrClosed) {
				t.Errorf("consume: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Errorf("Consume did not return after its context ended")
		}
	})
	return received
}

// The queue meets the ClaimPublisher contract of the claim path, in memory, on Redis
// Streams and on RabbitMQ (Kafka runs the same queue code behind its Pub/Sub, which
// TestKafka holds to the queue's own contract).
func TestClaimPublisherContract(t *testing.T) {
	t.Parallel()
	t.Run("memory", func(t *testing.T) {
		t.Parallel()
		seckilltest.ClaimPublisherContract(t, func(t *testing.T) (seckill.ClaimPublisher, <-chan domain.Claim) {
			q := openQueue(t, testConfig(t, queue.BackendMemory), nil)
			return q, claimsReceived(t, q)
		})
	})
	t.Run("redis streams", func(t *testing.T) {
		t.Parallel()
		redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
			seckilltest.ClaimPublisherContract(t, func(t *testing.T) (seckill.ClaimPublisher, <-chan domain.Claim) {
				q := openQueue(t, testConfig(t, queue.BackendRedis), conn)
				return q, claimsReceived(t, q)
			})
		})
	})
	t.Run("amqp", func(t *testing.T) {
		t.Parallel()
		url := testsupport.Require(t, testsupport.EnvAMQP)
		seckilltest.ClaimPublisherContract(t, func(t *testing.T) (seckill.ClaimPublisher, <-chan domain.Claim) {
			cfg := testConfig(t, queue.BackendAMQP)
			cfg.AMQPURL = url
			t.Cleanup(func() { testsupport.DeleteAMQPQueues(t, url, cfg.Namespace+"orders", cfg.Namespace+"orders.dead") })
			q := openQueue(t, cfg, nil)
			return q, claimsReceived(t, q)
		})
	})
}
