// Package queue carries accepted flash-sale claims from the claim gate to the order
// writer through a Watermill Pub/Sub chosen by configuration: in-process (memory),
// Redis Streams, Kafka or AMQP, each in a subpackage of its own (memory, redisstream,
// kafka, amqp); the backend_*.go files fit them to the queue. Delivery is at least
// once; the consumer hands claims to the application in batches and acknowledges them
// only after the batch was handled. The message body is claimwire's, which the Redis
// gate script writes too.
package queue

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/message/router/middleware"
	goredis "github.com/redis/go-redis/v9"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/dealspot/dealspot/adapters/claimwire"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
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
	run    *consumeRun
	// deadLetters counts the messages moved to the dead-letter topic.
	deadLetters deadLetterCount
}

var _ seckill.ClaimPublisher = (*Queue)(nil)

// consumeRun is one running Consume call.
type consumeRun struct {
	stop     chan struct{}
	stopOnce sync.Once
	done     chan struct{}
}

func (r *consumeRun) requestStop() { r.stopOnce.Do(func() { close(r.stop) }) }

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
	q := &Queue{cfg: cfg, log: log, wlog: watermill.NewSlogLogger(log)}
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
	ctx, span := childSpan(ctx, topic+" publish", trace.SpanKindProducer)
	if span != nil {
		defer func() { endSpan(span, err) }()
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

// Consume reads order messages until ctx is done or the queue is closed, then stops
// gracefully and returns nil. handle receives batches of up to BatchSize claims (or
// what arrived within BatchWait); their messages are acknowledged only after handle
// returned nil, so handle must be idempotent by order id, and it may run on several
// goroutines at once (Workers). A failing batch is retried with exponential back-off;
// after MaxRetries failures its claims are retried one by one, and a claim that fails
// alone MaxRetries times is written to the dead-letter topic, passed to dead, and
// acknowledged. Messages that are not claims are dead-lettered without calling dead.
// Only one Consume may run at a time.
func (q *Queue) Consume(
	ctx context.Context,
	handle func(ctx context.Context, claims []domain.Claim) error,
	dead func(ctx context.Context, c domain.Claim, cause error),
) error {
	if handle == nil || dead == nil {
		return errors.New("queue: Consume needs handle and dead")
	}
	run := &consumeRun{stop: make(chan struct{}), done: make(chan struct{})}
	q.mu.Lock()
	switch {
	case q.closed:
		q.mu.Unlock()
		return ErrClosed
	case q.run != nil:
		q.mu.Unlock()
		return errors.New("queue: already consuming")
	}
	q.run = run
	q.mu.Unlock()
	defer func() {
		q.mu.Lock()
		q.run = nil
		q.mu.Unlock()
		close(run.done)
	}()
	return q.consume(ctx, run, handle, dead)
}

func (q *Queue) consume(
	ctx context.Context,
	run *consumeRun,
	handle func(ctx context.Context, claims []domain.Claim) error,
	dead func(ctx context.Context, c domain.Claim, cause error),
) error {
	subs, release, err := q.backend.subscribe()
	if err != nil {
		return fmt.Errorf("subscribe to orders: %w", err)
	}
	defer func() {
		// The router closes the subscribers it started; these closes are no-ops then,
		// but not when it failed to start.
		for _, s := range subs {
			_ = s.sub.Close()
		}
		release()
	}()

	workCtx := context.WithoutCancel(ctx)
	stopCtx, stopped := context.WithCancel(workCtx)
	defer stopped()
	b := newBatcher(workCtx, q.cfg, handle, q.log)
	c := &consumer{cfg: q.cfg, batcher: b, stopCtx: stopCtx}

	router, err := message.NewRouter(message.RouterConfig{CloseTimeout: q.cfg.DrainTimeout}, q.wlog)
	if err != nil {
		b.stop(q.cfg.DrainTimeout)
		return err
	}
	poison, err := middleware.PoisonQueueWithFilter(&deadLetterPublisher{
		Publisher: q.backend.publisher(),
		ctx:       workCtx,
		dead:      dead,
		log:       q.log,
		count:     &q.deadLetters,
	}, q.backend.deadLetterTopic(), poisonous)
	if err != nil {
		b.stop(q.cfg.DrainTimeout)
		return err
	}
	retry := middleware.Retry{
		// A claim gives up by itself (errGaveUp) after at most 2×MaxRetries attempts;
		// this bound is only a backstop.
		MaxRetries:      2*q.cfg.MaxRetries + 1,
		InitialInterval: q.cfg.RetryInitialInterval,
		MaxInterval:     q.cfg.RetryMaxInterval,
		Multiplier:      2,
		MaxElapsedTime:  0,
		ShouldRetry:     c.shouldRetry,
	}
	// First added runs outermost.
	router.AddMiddleware(middleware.CorrelationID, poison, c.attempts, retry.Middleware, middleware.Recoverer)
	for _, s := range subs {
		router.AddConsumerHandler(s.name, s.topic, s.sub, c.handleMessage)
	}

	runErr := make(chan error, 1)
	go func() { runErr <- router.Run(context.WithoutCancel(ctx)) }()
	select {
	case <-router.Running():
	case err := <-runErr:
		b.stop(q.cfg.DrainTimeout)
		if err == nil {
			err = errors.New("router stopped at start")
		}
		return err
	}
	q.log.Info("consuming orders", "subscriptions", len(subs), "batch_size", q.cfg.BatchSize,
		"batch_wait", q.cfg.BatchWait, "workers", q.cfg.Workers)

	var result error
	select {
	case <-ctx.Done():
	case <-run.stop:
	case err := <-runErr:
		// Every subscription ended by itself (for example the broker went away for good).
		result = fmt.Errorf("order consumer stopped unexpectedly: %v", err)
		runErr <- err
	}

	// Stop: no new back-off waits or retries; stop reading; let the batches in hand
	// finish and their messages be acknowledged; then stop the batcher.
	stopped()
	if err := router.Close(); err != nil {
		q.log.Warn("order consumer did not drain in time", "error", err)
	}
	if err := <-runErr; err != nil && result == nil {
		q.log.Warn("order router ended with an error", "error", err)
	}
	b.stop(q.cfg.DrainTimeout)
	q.log.Info("stopped consuming orders")
	return result
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
