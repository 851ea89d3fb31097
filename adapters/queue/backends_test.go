package queue_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/IBM/sarama"
	amqp091 "github.com/rabbitmq/amqp091-go"
	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/adapters/claimwire"
	"github.com/dealspot/dealspot/adapters/queue"
	"github.com/dealspot/dealspot/adapters/queue/internal/queuetest"
	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// openQueue opens a queue that is closed when the test ends.
func openQueue(t *testing.T, cfg queue.Config, conn *redis.Conn) *queue.Queue {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var client goredis.UniversalClient
	if conn != nil {
		client = conn.Client
	}
	q, err := queue.Open(ctx, cfg, client, testLogger())
	if err != nil {
		t.Fatalf("open %s queue: %v", cfg.Backend, err)
	}
	t.Cleanup(func() {
		if err := q.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return q
}

func TestMemory(t *testing.T) {
	t.Parallel()
	runContract(t, contract{
		open:  func(t *testing.T) *queue.Queue { return openQueue(t, testConfig(t, queue.BackendMemory), nil) },
		depth: true,
	})
}

func TestRedisStreams(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		runContract(t, contract{
			open:    func(t *testing.T) *queue.Queue { return openQueue(t, testConfig(t, queue.BackendRedis), conn) },
			durable: true,
			depth:   true,
		})
	})
}

func TestKafka(t *testing.T) {
	t.Parallel()
	brokers := queuetest.StartKafka(t)
	runContract(t, contract{
		open: func(t *testing.T) *queue.Queue {
			cfg := testConfig(t, queue.BackendKafka)
			cfg.KafkaBrokers = brokers
			return openQueue(t, cfg, nil)
		},
		durable: true,
		depth:   true,
	})
}

// TestKafkaDepthIsConsumerGroupLag: Depth reports the orders topic alone, its Waiting
// the consumer group's lag (all published claims before the group exists, none once the
// consumer acknowledged them) and InFlight unknown.
func TestKafkaDepthIsConsumerGroupLag(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	brokers := queuetest.StartKafka(t)
	cfg := testConfig(t, queue.BackendKafka)
	cfg.KafkaBrokers = brokers
	cfg.Group = cfg.Namespace + "orders-group"
	q := openQueue(t, cfg, nil)
	depth := func() queue.Depth {
		ds, err := q.Depth(ctx)
		if err != nil {
			t.Fatalf("depth: %v", err)
		}
		if len(ds) != 1 || ds[0].Queue != cfg.Namespace+"orders" || ds[0].InFlight != -1 {
			t.Fatalf("depth %+v, want one entry for %sorders with InFlight -1", ds, cfg.Namespace)
		}
		return ds[0]
	}
	if d := depth(); d.Waiting != 0 {
		t.Fatalf("empty topic: depth %+v, want 0 waiting", d)
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	if ds, err := q.Depth(done); !errors.Is(err, context.Canceled) {
		t.Fatalf("depth with a cancelled context: %+v, %v; want context.Canceled", ds, err)
	}
	// Spread over the partitions by voucher, so several partitions the group never
	// committed count from their oldest offset.
	claims := makeClaims(30)
	for i := range claims {
		claims[i].VoucherID = int64(i + 1)
	}
	publishAll(t, q, claims, 4)
	if d := depth(); d.Waiting != int64(len(claims)) {
		t.Fatalf("before consuming: depth %+v, want %d waiting", d, len(claims))
	}
	rec := newRecorder()
	startConsuming(t, q, rec)
	waitUntil(t, 60*time.Second, func() bool { return rec.handledCount() == len(claims) },
		func() string { return fmt.Sprintf("%d of %d claims handled", rec.handledCount(), len(claims)) })
	waitUntil(t, 30*time.Second, func() bool { return depth().Waiting == 0 },
		func() string { return fmt.Sprintf("after consuming: depth %+v, want 0 waiting", depth()) })
	// More claims while the group consumes: the lag comes back to 0.
	publishAll(t, q, makeClaims(10), 2)
	waitUntil(t, 60*time.Second, func() bool { return rec.handledCount() == len(claims)+10 && depth().Waiting == 0 },
		func() string { return fmt.Sprintf("%d handled, depth %+v", rec.handledCount(), depth()) })
}

func TestAMQP(t *testing.T) {
	t.Parallel()
	url := testsupport.Require(t, testsupport.EnvAMQP)
	runContract(t, contract{
		open: func(t *testing.T) *queue.Queue {
			cfg := testConfig(t, queue.BackendAMQP)
			cfg.AMQPURL = url
			t.Cleanup(func() { testsupport.DeleteAMQPQueues(t, url, cfg.Namespace+"orders", cfg.Namespace+"orders.dead") })
			return openQueue(t, cfg, nil)
		},
		durable: true,
		depth:   true,
	})
}

func TestKafkaPartitionsByVoucher(t *testing.T) {
	t.Parallel()
	brokers := queuetest.StartKafka(t)
	cfg := testConfig(t, queue.BackendKafka)
	cfg.KafkaBrokers = brokers
	q := openQueue(t, cfg, nil)
	claims := makeClaims(40)
	for i := range claims {
		claims[i].VoucherID = int64(5 + i%2)
	}
	publishAll(t, q, claims, 4)

	consumer, err := sarama.NewConsumer(brokers, sarama.NewConfig())
	if err != nil {
		t.Fatalf("consumer: %v", err)
	}
	defer consumer.Close()
	topic := cfg.Namespace + "orders"
	partitions, err := consumer.Partitions(topic)
	if err != nil {
		t.Fatalf("partitions: %v", err)
	}
	if len(partitions) != cfg.KafkaPartitions {
		t.Fatalf("topic has %d partitions, want %d", len(partitions), cfg.KafkaPartitions)
	}
	partitionOf := map[string]int32{}
	seen := 0
	for _, p := range partitions {
		pc, err := consumer.ConsumePartition(topic, p, sarama.OffsetOldest)
		if err != nil {
			t.Fatalf("consume partition %d: %v", p, err)
		}
		hwm := pc.HighWaterMarkOffset()
		for hwm > 0 {
			m := <-pc.Messages()
			key := string(m.Key)
			if prev, ok := partitionOf[key]; ok && prev != p {
				t.Fatalf("voucher %s on partitions %d and %d", key, prev, p)
			}
			partitionOf[key] = p
			seen++
			if m.Offset+1 >= hwm {
				break
			}
		}
		_ = pc.Close()
	}
	if seen != len(claims) || len(partitionOf) != 2 {
		t.Fatalf("read %d messages keyed %v, want %d keyed by the two voucher ids", seen, partitionOf, len(claims))
	}
}

func TestAMQPMessagesArePersistent(t *testing.T) {
	t.Parallel()
	url := testsupport.Require(t, testsupport.EnvAMQP)
	cfg := testConfig(t, queue.BackendAMQP)
	cfg.AMQPURL = url
	t.Cleanup(func() { testsupport.DeleteAMQPQueues(t, url, cfg.Namespace+"orders", cfg.Namespace+"orders.dead") })
	q := openQueue(t, cfg, nil)
	c := makeClaims(1)[0]
	if err := q.PublishClaim(context.Background(), c); err != nil {
		t.Fatalf("publish: %v", err)
	}
	conn, err := amqp091.Dial(url)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	defer conn.Close()
	ch, err := conn.Channel()
	if err != nil {
		t.Fatalf("channel: %v", err)
	}
	defer ch.Close()
	// Declaring it durable succeeds only if it exists as a durable queue already.
	if qi, err := ch.QueueDeclare(cfg.Namespace+"orders", true, false, false, false, nil); err != nil || qi.Messages != 1 {
		t.Fatalf("orders queue: %+v, %v; want a durable queue holding the message", qi, err)
	}
	d, ok, err := ch.Get(cfg.Namespace+"orders", false)
	if err != nil || !ok {
		t.Fatalf("get: ok=%v err=%v", ok, err)
	}
	defer func() { _ = d.Nack(false, true) }()
	if d.DeliveryMode != amqp091.Persistent {
		t.Fatalf("delivery mode %d, want persistent", d.DeliveryMode)
	}
	if got, err := claimwire.DecodeClaim(d.Body); err != nil || got != c {
		t.Fatalf("body decodes to %+v (%v), want %+v", got, err, c)
	}
}
