package notifyqueue

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/adapters/queue/amqp"
	"github.com/dealspot/dealspot/adapters/queue/kafka"
	"github.com/dealspot/dealspot/adapters/queue/redisstream"
	"github.com/dealspot/dealspot/internal/domain"
)

// Backends a Broker runs on: the order queue's (QUEUE), but for the in-process one,
// whose events stay in the Buffer.
const (
	BackendRedis = "redis"
	BackendAMQP  = "amqp"
	BackendKafka = "kafka"
)

// Defaults of BrokerConfig.
const (
	DefaultTopic    = "notifications"
	DefaultGroup    = "dealspot-notifications"
	DefaultAttempts = 5
	DefaultBackoff  = 200 * time.Millisecond
)

// BrokerConfig says where the events travel and how their consumer retries.
type BrokerConfig struct {
	// Backend is redis (a Redis stream), amqp (a durable RabbitMQ queue) or kafka.
	Backend string
	// Namespace is prepended to the topic (tests keep runs apart with it).
	Namespace string
	// Topic is the stream, queue or topic of the events (default notifications).
	Topic string
	// Group is the consumer group (Redis, Kafka; default dealspot-notifications).
	Group string
	// KafkaBrokers and AMQPURL locate the brokers of those backends.
	KafkaBrokers []string
	AMQPURL      string
	// KafkaPartitions is the partition count of the topic when it is created (default
	// 4).
	KafkaPartitions int
	// Attempts is how often the consumer hands a message to the writer before it gives
	// the message up (default 5); Backoff is the first wait between attempts (default
	// 200ms, doubling).
	Attempts int
	Backoff  time.Duration
	// ClaimIdle is how long a Redis stream entry may stay unacknowledged with a consumer
	// that died before another takes it over (default 30s).
	ClaimIdle time.Duration
	// DrainTimeout bounds a stopping consumer's wait for the message in hand (default
	// 10s).
	DrainTimeout time.Duration
}

func (c BrokerConfig) withDefaults() BrokerConfig {
	if c.Topic == "" {
		c.Topic = DefaultTopic
	}
	if c.Group == "" {
		c.Group = DefaultGroup
	}
	if c.KafkaPartitions <= 0 {
		c.KafkaPartitions = 4
	}
	if c.Attempts <= 0 {
		c.Attempts = DefaultAttempts
	}
	if c.Backoff <= 0 {
		c.Backoff = DefaultBackoff
	}
	if c.ClaimIdle <= 0 {
		c.ClaimIdle = 30 * time.Second
	}
	if c.DrainTimeout <= 0 {
		c.DrainTimeout = 10 * time.Second
	}
	return c
}

// Broker carries batches of notification events over the configured Pub/Sub, one
// message per batch, on a topic of their own: the publish side is the Buffer's handler
// (Publish), the consume side hands each message to the inbox's writer (Consume).
// Delivery is at least once; the writer is idempotent. Messages published while no
// consumer runs (it crashed, or has not started yet) wait in the broker.
type Broker struct {
	cfg   BrokerConfig
	log   *slog.Logger
	wlog  watermill.LoggerAdapter
	drops Drops
	topic string

	pub message.Publisher
	// newSub opens a subscriber for one Consume run and what to release after it.
	newSub func() (message.Subscriber, func(), error)

	mu      sync.Mutex
	closing []func() error
}

// Drops counts the events given up on, by reason (see the Reason constants).
type Drops func(reason string, events int)

// Reasons an event is dropped.
const (
	// ReasonBufferFull: the publish buffer was full (the broker or the writer lags).
	ReasonBufferFull = "buffer_full"
	// ReasonClosed: reported after the process began to stop.
	ReasonClosed = "closed"
	// ReasonPublishFailed: the broker refused or could not be reached, Attempts times.
	ReasonPublishFailed = "publish_failed"
	// ReasonWriteFailed: the writer failed on it Attempts times.
	ReasonWriteFailed = "write_failed"
	// ReasonMalformed: a message that is not a batch of events.
	ReasonMalformed = "malformed"
)

// OpenBroker connects to the backend and creates the topic and its consumer group, so
// events published before the first Consume are kept. redisClient (one server or a
// cluster) is needed by the redis backend only; the broker opens clients of its own
// with its options and leaves it open. drops may be nil.
func OpenBroker(ctx context.Context, cfg BrokerConfig, redisClient goredis.UniversalClient, drops Drops, log *slog.Logger) (*Broker, error) {
	cfg = cfg.withDefaults()
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if drops == nil {
		drops = func(string, int) {}
	}
	log = log.With("component", "notification queue", "backend", cfg.Backend)
	b := &Broker{cfg: cfg, log: log, wlog: watermill.NewSlogLogger(log), drops: drops, topic: cfg.Namespace + cfg.Topic}
	var err error
	switch cfg.Backend {
	case BackendRedis:
		err = b.openRedis(ctx, redisClient)
	case BackendAMQP:
		err = b.openAMQP(ctx)
	case BackendKafka:
		err = b.openKafka(ctx)
	default:
		err = fmt.Errorf("unknown backend %q (want redis, amqp or kafka)", cfg.Backend)
	}
	if err != nil {
		_ = b.Close()
		return nil, fmt.Errorf("open notification queue on %s: %w", cfg.Backend, err)
	}
	return b, nil
}

func (b *Broker) openRedis(ctx context.Context, client goredis.UniversalClient) error {
	if client == nil {
		return errors.New("the redis backend needs a redis connection")
	}
	if err := redisstream.CreateGroup(ctx, client, b.topic, b.cfg.Group); err != nil {
		return err
	}
	// Closing a publisher or subscriber closes its client: each gets its own.
	pubClient, err := sibling(client)
	if err != nil {
		return err
	}
	pub, err := redisstream.NewPublisher(pubClient, nil, b.wlog)
	if err != nil {
		_ = pubClient.Close()
		return err
	}
	b.pub = pub
	b.onClose(pub.Close)
	b.newSub = func() (message.Subscriber, func(), error) {
		c, err := sibling(client)
		if err != nil {
			return nil, nil, err
		}
		sub, err := redisstream.NewSubscriber(redisstream.SubscriberConfig{
			Client: c, Group: b.cfg.Group, Window: 1, ClaimIdle: b.cfg.ClaimIdle, ClaimInterval: b.cfg.ClaimIdle / 3,
			DrainTimeout: b.cfg.DrainTimeout, DeleteAcked: true,
		}, b.wlog)
		if err != nil {
			_ = c.Close()
			return nil, nil, err
		}
		return sub, func() { _ = sub.Close(); _ = c.Close() }, nil
	}
	return nil
}

// sibling opens a client of the same kind as c, to the same servers, with its options.
func sibling(c goredis.UniversalClient) (goredis.UniversalClient, error) {
	switch c := c.(type) {
	case *goredis.ClusterClient:
		opts := *c.Options()
		return goredis.NewClusterClient(&opts), nil
	case *goredis.Client:
		opts := *c.Options()
		return goredis.NewClient(&opts), nil
	}
	return nil, fmt.Errorf("cannot open another redis client like a %T", c)
}

func (b *Broker) openAMQP(ctx context.Context) error {
	if b.cfg.AMQPURL == "" {
		return errors.New("the amqp backend needs a URL")
	}
	pub := amqp.NewPublisher(b.cfg.AMQPURL, "dealspot notifications: publish", nil, b.wlog)
	b.onClose(pub.Close)
	// A message published to a queue that does not exist yet would be confirmed and
	// dropped: declare it first.
	if err := pub.Declare(ctx, b.topic); err != nil {
		return fmt.Errorf("declare queue: %w", err)
	}
	b.pub = pub
	b.newSub = func() (message.Subscriber, func(), error) {
		sub := amqp.NewSubscriber(b.cfg.AMQPURL, "dealspot notifications: consume", nil, b.wlog)
		return sub, func() { _ = sub.Close() }, nil
	}
	return nil
}

func (b *Broker) openKafka(ctx context.Context) error {
	if len(b.cfg.KafkaBrokers) == 0 {
		return errors.New("the kafka backend needs at least one broker")
	}
	if err := kafka.EnsureTopics(ctx, b.cfg.KafkaBrokers, []string{b.topic},
		kafka.TopicSpec{Partitions: b.cfg.KafkaPartitions}, b.log); err != nil {
		return err
	}
	// Batches are independent of one another: spread them over the partitions.
	pub, err := kafka.NewPublisher(b.cfg.KafkaBrokers, func(msg *message.Message) string { return msg.UUID }, b.wlog)
	if err != nil {
		return err
	}
	b.pub = pub
	b.onClose(pub.Close)
	b.newSub = func() (message.Subscriber, func(), error) {
		sub, err := kafka.NewSubscriber(kafka.SubscriberConfig{
			Brokers: b.cfg.KafkaBrokers, Group: b.cfg.Group, Sarama: kafka.NewSaramaConfig(), Window: 1,
			DrainTimeout: b.cfg.DrainTimeout,
		}, b.wlog)
		if err != nil {
			return nil, nil, err
		}
		return sub, func() { _ = sub.Close() }, nil
	}
	return nil
}

func (b *Broker) onClose(fn func() error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closing = append(b.closing, fn)
}

// Publish sends events as one message and returns once the broker took it (Redis:
// XADD done; AMQP: confirmed; Kafka: acknowledged). It is the Buffer's handler on the
// publishing side: the Buffer retries a failed publish and counts what it gives up.
func (b *Broker) Publish(_ context.Context, events []domain.NotificationEvent) error {
	if len(events) == 0 {
		return nil
	}
	payload, err := encodeBatch(events)
	if err != nil {
		return err
	}
	msg := message.NewMessage(watermill.NewUUID(), payload)
	if err := b.pub.Publish(b.topic, msg); err != nil {
		return fmt.Errorf("publish %d notification events: %w", len(events), err)
	}
	return nil
}

// Consume hands every message to handle, one at a time, until ctx ends; then it
// returns nil. A message is acknowledged once handle returned nil; a failing one is
// handed again with back-off, Attempts times in all, then acknowledged and counted as
// dropped (write_failed). A message still failing when ctx ends is left
// unacknowledged: the broker delivers it again, to this node or another.
func (b *Broker) Consume(ctx context.Context, handle func(ctx context.Context, events []domain.NotificationEvent) error) error {
	sub, release, err := b.newSub()
	if err != nil {
		return fmt.Errorf("subscribe to notification events: %w", err)
	}
	defer release()
	msgs, err := sub.Subscribe(ctx, b.topic)
	if err != nil {
		return fmt.Errorf("subscribe to notification events: %w", err)
	}
	for msg := range msgs {
		b.handle(ctx, msg, handle)
	}
	return nil
}

// handle takes one message through its attempts.
func (b *Broker) handle(ctx context.Context, msg *message.Message, handle func(context.Context, []domain.NotificationEvent) error) {
	events, err := decodeBatch(msg.Payload)
	if err != nil {
		b.log.Error("dropping a message that is not a batch of notification events", slog.String("message_id", msg.UUID), slog.Any("error", err))
		b.drops(ReasonMalformed, 1)
		msg.Ack()
		return
	}
	wait := b.cfg.Backoff
	for attempt := 1; ; attempt++ {
		// The message in hand is finished even when ctx ends meanwhile; only the waits
		// between attempts end with it.
		err := handle(context.WithoutCancel(ctx), events)
		if err == nil {
			msg.Ack()
			return
		}
		if attempt >= b.cfg.Attempts {
			b.log.Error("notification events dropped: the writer keeps failing", slog.Int("events", len(events)),
				slog.Int("attempts", attempt), slog.Any("error", err))
			b.drops(ReasonWriteFailed, len(events))
			msg.Ack()
			return
		}
		b.log.Warn("cannot write notifications; retrying", slog.Int("events", len(events)), slog.Any("error", err))
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			msg.Nack()
			return
		}
		wait *= 2
	}
}

// Close closes the publisher and the connections. Stop Consume (its ctx) first.
func (b *Broker) Close() error {
	b.mu.Lock()
	closing := b.closing
	b.closing = nil
	b.mu.Unlock()
	var errs []error
	for i := len(closing) - 1; i >= 0; i-- {
		if err := closing[i](); err != nil && !strings.Contains(err.Error(), "closed") {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
