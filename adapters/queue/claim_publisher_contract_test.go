package queue_test

import (
	"testing"

	"github.com/dealspot/dealspot/adapters/queue"
	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/app/seckill/seckilltest"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// claimsReceived consumes q until the test ends and hands every claim its handler gets
// to the channel it returns.
func claimsReceived(t *testing.T, q *queue.Queue) <-chan domain.Claim {
	t.Helper()
	received := make(chan domain.Claim, 1024)
	rec := newRecorder()
	rec.fail = func(claims []domain.Claim) error {
		for _, c := range claims {
			select {
			case received <- c:
			default:
			}
		}
		return nil
	}
	startConsuming(t, q, rec)
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
