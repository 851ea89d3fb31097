package queue

import (
	"errors"
	"fmt"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/dealspot/dealspot/internal/config"
)

// Backend names accepted in Config.Backend.
const (
	BackendMemory = "memory"
	BackendRedis  = "redis"
	BackendKafka  = "kafka"
	BackendAMQP   = "amqp"
)

// Defaults applied by Config.WithDefaults. Those of settings the service configures
// (SECKILL_SHARDS, ORDER_BATCH_SIZE, …) are the service's own defaults, defined in
// internal/config; the others belong to the queue alone.
const (
	DefaultShards               = config.DefaultSeckillShards
	DefaultGroup                = "dealspot-orders"
	DefaultBatchSize            = config.DefaultOrderBatchSize
	DefaultBatchWait            = config.DefaultOrderBatchWait
	DefaultMaxRetries           = config.DefaultOrderMaxRetries
	DefaultRetryInitialInterval = 100 * time.Millisecond
	DefaultRetryMaxInterval     = 10 * time.Second
	DefaultClaimIdle            = config.DefaultStreamClaimIdle
	DefaultClaimInterval        = config.DefaultStreamClaimInterval
	DefaultDrainTimeout         = 10 * time.Second
	DefaultKafkaPartitions      = 16
	DefaultAMQPConsumers        = 32
	DefaultWorkers              = config.DefaultOrderWorkers
)

// Config selects and tunes the order queue.
type Config struct {
	// Backend is "memory" (in-process, the embedded default), "redis" (Redis Streams),
	// "kafka" or "amqp".
	Backend string

	// Namespace is prepended to every topic, queue and stream name. Empty in production,
	// where the Redis streams must be exactly orders:{s<k>} because the gate script
	// writes to them; tests use it to keep runs apart on shared servers.
	Namespace string

	// Shards is the number of Redis order streams, orders:{s0} … orders:{s<Shards-1>}.
	// It must equal the shard count the gate script uses.
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

	// BatchSize is the most claims handed to one handle call.
	BatchSize int
	// BatchWait is how long a batch that is not full waits for more claims.
	BatchWait time.Duration
	// Workers is how many batches may be handled at the same time.
	Workers int

	// MaxRetries is how often a failing batch is retried before its claims are retried
	// one by one, and how often a claim failing on its own is retried before it is
	// dead-lettered.
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
	// that no longer refreshes it before another consumer takes it over.
	ClaimIdle time.Duration
	// ClaimInterval is how often a Redis consumer refreshes the entries it holds (so
	// they never look idle while it lives) and takes over idle entries of others, as
	// many as there are, in one pass. Keep it well below ClaimIdle; the default is the
	// lesser of DefaultClaimInterval and ClaimIdle/3.
	ClaimInterval time.Duration

	// DrainTimeout bounds a graceful stop: how long the batches in hand may take to
	// finish and be acknowledged.
	DrainTimeout time.Duration

	// Tracer, when set, traces consumption: a batch whose claims carry a sampled trace
	// context runs in an "orders process" span (see batcher.traced). Nil: nothing is
	// extracted or started. Publishing needs no tracer: it adds its span to the trace of
	// the context it is given, if that trace is recorded.
	Tracer trace.TracerProvider
}

// WithDefaults returns the configuration with every unset field set to its default.
func (c Config) WithDefaults() Config {
	if c.Backend == "" {
		c.Backend = BackendMemory
	}
	if c.Shards <= 0 {
		c.Shards = DefaultShards
	}
	if c.Group == "" {
		c.Group = DefaultGroup
	}
	if c.KafkaPartitions <= 0 {
		c.KafkaPartitions = DefaultKafkaPartitions
	}
	if c.BatchSize <= 0 {
		c.BatchSize = DefaultBatchSize
	}
	if c.BatchWait <= 0 {
		c.BatchWait = DefaultBatchWait
	}
	if c.Workers <= 0 {
		c.Workers = DefaultWorkers
	}
	if c.MaxRetries <= 0 {
		c.MaxRetries = DefaultMaxRetries
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
	if c.ClaimIdle <= 0 {
		c.ClaimIdle = DefaultClaimIdle
	}
	if c.ClaimInterval <= 0 {
		c.ClaimInterval = min(DefaultClaimInterval, c.ClaimIdle/3)
	}
	if c.DrainTimeout <= 0 {
		c.DrainTimeout = DefaultDrainTimeout
	}
	return c
}

// Validate reports a configuration that cannot work.
func (c Config) Validate() error {
	switch c.Backend {
	case BackendMemory, BackendRedis:
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
