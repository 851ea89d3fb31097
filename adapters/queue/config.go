package queue

import (
	"errors"
	"fmt"
	"time"

	"go.opentelemetry.io/otel/trace"
)

// Backend names accepted in Config.Backend.
const (
	BackendMemory = "memory"
	BackendRedis  = "redis"
	BackendKafka  = "kafka"
	BackendAMQP   = "amqp"
)

// Defaults applied by Config.WithDefaults to the settings that belong to the queue
// alone. The settings the service configures (Shards, BatchSize, BatchWait, Workers,
// MaxRetries, ClaimIdle: SECKILL_SHARDS, ORDER_BATCH_SIZE, …) have no default here: the
// composition root passes them, their defaults are internal/config's, and Validate
// refuses a configuration that leaves them unset.
const (
	DefaultGroup                = "dealspot-orders"
	DefaultRetryInitialInterval = 100 * time.Millisecond
	DefaultRetryMaxInterval     = 10 * time.Second
	DefaultDrainTimeout         = 10 * time.Second
	DefaultKafkaPartitions      = 16
	DefaultAMQPConsumers        = 32
)

// Config selects and tunes the order queue: plain settings, filled by the composition
// root (internal/service) from the service's configuration.
type Config struct {
	// Backend is "memory" (in-process, the embedded default), "redis" (Redis Streams),
	// "kafka" or "amqp".
	Backend string

	// Namespace is prepended to every topic, queue and stream name. Empty in production,
	// where the Redis streams must be exactly orders:{s<k>} because the gate script
	// writes to them; tests use it to keep runs apart on shared servers.
	Namespace string

	// Shards is the number of Redis order streams, orders:{s0} … orders:{s<Shards-1>}.
	// It must equal the shard count the gate script uses. Required by the redis backend.
	Shards int

	// Group is the consumer group (Redis Streams, Kafka).
	Group string

	// KafkaBrokers lists host:port of Kafka brokers.
	KafkaBrokers []string
	// KafkaPartitions is the partition count used when the orders topic does not exist
	// yet and is created at start.
	KafkaPartitions int
	// KafkaReplicationFactor is used when topics are created at start; zero means
	// min(3, number of brokers).
	KafkaReplicationFactor int16

	// AMQPURL is the amqp:// URL of the broker.
	AMQPURL string

	// BatchSize is the most claims handed to one handle call. Required.
	BatchSize int
	// BatchWait is how long a batch that is not full waits for more claims. Required.
	BatchWait time.Duration
	// Workers is how many batches may be handled at the same time. Required.
	Workers int

	// MaxRetries is how often a failing batch is retried before its claims are retried
	// one by one, and how often a claim failing on its own is retried before it is
	// dead-lettered. Required.
	MaxRetries int
	// RetryInitialInterval is the first back-off; it doubles on every retry.
	RetryInitialInterval time.Duration
	// RetryMaxInterval caps the back-off.
	RetryMaxInterval time.Duration

	// Consumers is the number of concurrent consumers per process: AMQP channels
	// reading the queue (each holds one unacknowledged delivery at a time), Redis
	// consumer-group members, or Kafka consumer-group members. The Redis and Kafka
	// consumers each keep up to BatchSize messages per stream or partition in flight.
	Consumers int

	// ClaimIdle is how long a Redis stream entry may stay unacknowledged with a consumer
	// that no longer refreshes it before another consumer takes it over. Required by the
	// redis backend.
	ClaimIdle time.Duration
	// ClaimInterval is how often a Redis consumer refreshes the entries it holds (so
	// they never look idle while it lives) and takes over idle entries of others, as
	// many as there are, in one pass. Keep it well below ClaimIdle; unset, it is
	// ClaimIdle/3.
	ClaimInterval time.Duration

	// HandleTimeout bounds one batch's handle call (0: unbounded). Its context is
	// cancelled after HandleTimeout, which ends a statement waiting in the database; a
	// call that has still not returned HandleTimeout later (a driver stuck on its
	// connection) is abandoned: its claims are answered with an error, so their messages
	// are retried, and its worker takes the next batch. Handling must be idempotent for
	// this, as it already is for redeliveries.
	HandleTimeout time.Duration

	// DrainTimeout bounds a graceful stop: how long the batches in hand may take to
	// finish and be acknowledged.
	DrainTimeout time.Duration

	// Tracer, when set, traces consumption: a batch whose claims carry a sampled trace
	// context runs in an "orders process" span (see batcher.traced). Nil: nothing is
	// extracted or started. Publishing needs no tracer: it adds its span to the trace of
	// the context it is given, if that trace is recorded.
	Tracer trace.TracerProvider
}

// WithDefaults returns the configuration with every unset setting that has a default
// (those the queue alone tunes) set to it.
func (c Config) WithDefaults() Config {
	if c.Backend == "" {
		c.Backend = BackendMemory
	}
	if c.Group == "" {
		c.Group = DefaultGroup
	}
	if c.KafkaPartitions <= 0 {
		c.KafkaPartitions = DefaultKafkaPartitions
	}
	if c.RetryInitialInterval <= 0 {
		c.RetryInitialInterval = DefaultRetryInitialInterval
	}
	if c.RetryMaxInterval <= 0 {
		c.RetryMaxInterval = DefaultRetryMaxInterval
	}
	if c.RetryMaxInterval < c.RetryInitialInterval {
		c.RetryMaxInterval = c.RetryInitialInterval
	}
	if c.Consumers <= 0 {
		c.Consumers = 1
		if c.Backend == BackendAMQP {
			c.Consumers = DefaultAMQPConsumers
		}
	}
	if c.ClaimInterval <= 0 {
		c.ClaimInterval = c.ClaimIdle / 3
	}
	if c.DrainTimeout <= 0 {
		c.DrainTimeout = DefaultDrainTimeout
	}
	return c
}

// Validate reports a configuration that cannot work, among them one that leaves a
// required setting unset.
func (c Config) Validate() error {
	switch {
	case c.BatchSize < 1:
		return errors.New("queue: BatchSize must be at least 1")
	case c.BatchWait <= 0:
		return errors.New("queue: BatchWait must be positive")
	case c.Workers < 1:
		return errors.New("queue: Workers must be at least 1")
	case c.MaxRetries < 1:
		return errors.New("queue: MaxRetries must be at least 1")
	case c.HandleTimeout < 0:
		return errors.New("queue: HandleTimeout must not be negative")
	}
	switch c.Backend {
	case BackendMemory:
	case BackendRedis:
		if c.Shards < 1 {
			return errors.New("queue: redis backend needs Shards of at least 1")
		}
		if c.ClaimIdle <= 0 {
			return errors.New("queue: redis backend needs a positive ClaimIdle")
		}
	case BackendKafka:
		if len(c.KafkaBrokers) == 0 {
			return errors.New("queue: kafka backend needs at least one broker")
		}
	case BackendAMQP:
		if c.AMQPURL == "" {
			return errors.New("queue: amqp backend needs a URL")
		}
	default:
		return fmt.Errorf("queue: unknown backend %q (want memory, redis, kafka or amqp)", c.Backend)
	}
	return nil
}
