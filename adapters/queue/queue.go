// Package queue carries accepted flash-sale claims from the claim gate to the order
// writer through a Watermill Pub/Sub chosen by configuration: in-process (memory),
// Redis Streams, Kafka or AMQP, each in a subpackage of its own (memory, redisstream,
// kafka, amqp); the backend_*.go files fit them to the queue. Delivery is at least
// once; the consumer hands claims to the application in batches and acknowledges them
// only after the batch was handled. The message body is claimwire's, which the Redis
// gate script writes too.
//
// queue.go opens the queue, publishes claims and closes it; consume.go is the whole
// consumer side, from a broker's subscriber to the application's handler, in the order
// a message meets it.
package queue

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/message/router/middleware"
	goredis "github.com/redis/go-redis/v9"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/dealspot/dealspot/adapters/claimwire"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/tracespan"
)

// ErrClosed is returned by a Queue that was closed.
var ErrClosed = errors.New("queue: closed")

// Queue publishes claims and consumes them in batches.
type Queue struct {
	cfg     Config
	log     *slog.Logger
	wlog    watermill.LoggerAdapter
	backend backend

	mu     sync.Mutex
	closed bool
	// run is the running Consume (consume.go), nil when none runs.
	run *consumeRun
	// deadLetters counts the messages moved to the dead-letter topic.
	deadLetters deadLetterCount
	// abandoned counts the batches whose handler did not return in time.
	abandoned atomic.Uint64
}

var _ seckill.ClaimPublisher = (*Queue)(nil)

// Metadata keys carried by order messages.
const (
	MetadataOrderID   = "order_id"
	MetadataVoucherID = "voucher_id"
)

// Topic names before the namespace is prepended. The Redis backend's order streams are
// named by claimwire (one per shard), because the gate script writes to them.
const (
	ordersTopic      = "orders"
	deadLetterTopic  = "orders.dead"
	deadLetterStream = "orders:dead"
)

// tracerName names the tracer of the publish and "orders process" spans.
const tracerName = "github.com/dealspot/dealspot/adapters/queue"

// Open builds the queue for cfg.Backend. redisClient (one server or a cluster) is used
// by the redis backend only and may be nil otherwise; the backend opens further clients with its options (the
// publisher and each consumer get their own) and leaves it open. Topics, queues and
// consumer groups are created here, so claims published before the first Consume are
// kept (on the memory backend, in process).
func Open(ctx context.Context, cfg Config, redisClient goredis.UniversalClient, log *slog.Logger) (*Queue, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	log = log.With("component", "queue", "backend", cfg.Backend)
	q := &Queue{cfg: cfg, log: log, wlog: newLevelLogger(log)}
	var err error
	switch cfg.Backend {
	case BackendMemory:
		q.backend = newMemoryBackend(cfg, q.wlog)
	case BackendRedis:
		if redisClient == nil {
			return nil, errors.New("queue: redis backend needs a redis connection")
		}
		q.backend, err = openRedisBackend(ctx, cfg, redisClient, q.wlog)
	case BackendKafka:
		q.backend, err = openKafkaBackend(ctx, cfg, q.wlog, log)
	case BackendAMQP:
		q.backend, err = openAMQPBackend(ctx, cfg, q.wlog)
	}
	if err != nil {
		return nil, fmt.Errorf("open %s queue: %w", cfg.Backend, err)
	}
	return q, nil
}

// Config returns the configuration in use, defaults applied.
func (q *Queue) Config() Config { return q.cfg }

// PublishedByGate reports whether the claim gate writes order messages itself (the Redis
// Streams backend, where the gate script XADDs to the voucher's shard stream), so the
// caller must not publish them again.
func (q *Queue) PublishedByGate() bool { return q.cfg.Backend == BackendRedis }

// ClaimStream names the topic (on the Redis backend: the shard stream orders:{s<k>},
// with the namespace) that the voucher's claims are published to. The Redis gate script
// XADDs to it, so a claim and its message are one atomic step.
func (q *Queue) ClaimStream(voucherID int64) string {
	return q.backend.ordersTopic(voucherID)
}

// PublishClaim publishes the order message for c and returns once the backend accepted
// it (Kafka: acknowledged by all in-sync replicas; AMQP: publisher confirm; Redis: XADD
// done). On the Redis backend the gate normally publishes; this is for re-publishing.
//
// An error wraps seckill.ErrNotEnqueued when the message is known not to be queued: an
// invalid claim, a closed queue, a context that ended before the send, a message the
// broker refused (AMQP nack; Kafka: too large or corrupt), or one never sent (no
// connection; the memory backend's only failure is a closed Pub/Sub). Any other error
// leaves the outcome unknown: the message may be queued (an AMQP confirm lost or late,
// a Kafka or Redis reply that never came).
func (q *Queue) PublishClaim(ctx context.Context, c domain.Claim) (err error) {
	if err := validClaim(c); err != nil {
		return notEnqueued(err)
	}
	q.mu.Lock()
	closed := q.closed
	q.mu.Unlock()
	if closed {
		return notEnqueued(ErrClosed)
	}
	if err := ctx.Err(); err != nil {
		return notEnqueued(err)
	}
	msg := newClaimMessage(c)
	topic := q.backend.ordersTopic(c.VoucherID)
	// Within a recorded trace the message carries the publish span's context to the
	// consumer (W3C traceparent in its metadata).
	ctx, span := tracespan.Child(ctx, tracerName, topic+" publish", trace.SpanKindProducer)
	if span != nil {
		defer func() { tracespan.End(span, err) }()
		span.SetAttributes(attribute.String("messaging.system", q.cfg.Backend), attribute.String("messaging.operation.type", "send"),
			attribute.String("messaging.destination.name", topic), attribute.String("messaging.message.id", msg.UUID))
		claimwire.InjectTrace(ctx, msg.Metadata)
	}
	msg.SetContext(ctx)
	if err := q.backend.publisher().Publish(topic, msg); err != nil {
		err = fmt.Errorf("publish order %d: %w", c.OrderID, err)
		if q.backend.notSent(err) || errors.Is(err, ErrClosed) {
			return notEnqueued(err)
		}
		return err
	}
	return nil
}

// newClaimMessage builds the Watermill message for c: its UUID is the decimal order id,
// its payload claimwire's encoding.
func newClaimMessage(c domain.Claim) *message.Message {
	id := strconv.FormatInt(c.OrderID, 10)
	msg := message.NewMessage(id, claimwire.EncodeClaim(c))
	msg.Metadata.Set(MetadataOrderID, id)
	msg.Metadata.Set(MetadataVoucherID, strconv.FormatInt(c.VoucherID, 10))
	middleware.SetCorrelationID(id, msg)
	return msg
}

func validClaim(c domain.Claim) error {
	if c.OrderID <= 0 || c.UserID <= 0 || c.VoucherID <= 0 {
		return fmt.Errorf("queue: claim needs positive order, user and voucher ids (got %d, %d, %d)",
			c.OrderID, c.UserID, c.VoucherID)
	}
	return nil
}

// Close stops a running Consume gracefully, waits for it, and closes the publishers and
// connections. It is safe to call more than once.
func (q *Queue) Close() error {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return nil
	}
	q.closed = true
	run := q.run
	q.mu.Unlock()
	if run != nil {
		run.requestStop()
		<-run.done
	}
	return q.backend.close()
}
