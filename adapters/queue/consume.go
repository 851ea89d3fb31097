package queue

// The consumer side of a claim, from the moment its message leaves a broker's subscriber
// until the order writer's handler has it, in the order a message meets the code:
//
//	Consume, consume                 subscribe (backend_*.go) and start the router
//	drainingSubscriber.Subscribe     AMQP only: deliveries counted until acknowledged
//	  Watermill's CorrelationID and PoisonQueue middlewares
//	consumer.attempts                the delivery's state across attempts
//	  Watermill's Retry and Recoverer middlewares
//	consumer.handleMessage           claimwire.DecodeClaim, the lane, the trace context
//	batcher.submit, loop, run        gathered by lane, cut by size or wait, on a worker
//	batcher.traced, safeHandle       the "orders process" span, then handle
//	consumer.shouldRetry, poisonous  after a failed attempt: again, or the dead letter
//	deadLetterPublisher.Publish      the dead-letter topic, then dead

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/message/router/middleware"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/dealspot/dealspot/adapters/claimwire"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/tracespan"
)

// 1. The run. Consume subscribes through the backend and starts a Watermill router whose
// handlers carry each message through the middlewares below to the batcher; stopping
// drains the batches in hand.

// consumeRun is one running Consume call.
type consumeRun struct {
	stop     chan struct{}
	stopOnce sync.Once
	done     chan struct{}
}

func (r *consumeRun) requestStop() { r.stopOnce.Do(func() { close(r.stop) }) }

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
	b.abandoned = &q.abandoned
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
	retry := retrying{
		// A claim gives up by itself (errGaveUp) after at most 2×MaxRetries attempts;
		// this bound is only a backstop.
		maxRetries:  2*q.cfg.MaxRetries + 1,
		initial:     q.cfg.RetryInitialInterval,
		max:         q.cfg.RetryMaxInterval,
		shouldRetry: c.shouldRetry,
	}
	// First added runs outermost.
	router.AddMiddleware(middleware.CorrelationID, poison, c.attempts, retry.middleware, middleware.Recoverer)
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

// 2. Out of the subscriber (AMQP only). The AMQP backend wraps its subscriber so that
// closing it waits for the deliveries in hand to be acknowledged; the Redis Streams,
// Kafka and memory subscribers hand their messages to the router directly.

// drainingSubscriber delays closing the subscriber it wraps until the messages it
// delivered were acknowledged or negatively acknowledged (or timeout passed). The
// router closes subscribers as soon as it begins to stop, and amqp.Subscriber would then
// requeue the deliveries whose batch is still being handled.
type drainingSubscriber struct {
	inner   message.Subscriber
	timeout time.Duration

	mu       sync.Mutex
	inflight int
	idle     chan struct{} // closed when inflight drops to zero while Close waits

	innerGone chan struct{}
	closeOnce sync.Once
	closeErr  error
}

func newDrainingSubscriber(inner message.Subscriber, timeout time.Duration) *drainingSubscriber {
	return &drainingSubscriber{inner: inner, timeout: timeout, innerGone: make(chan struct{})}
}

func (d *drainingSubscriber) track(delta int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.inflight += delta
	if d.inflight == 0 && d.idle != nil {
		close(d.idle)
		d.idle = nil
	}
}

func (d *drainingSubscriber) Subscribe(ctx context.Context, topic string) (<-chan *message.Message, error) {
	in, err := d.inner.Subscribe(ctx, topic)
	if err != nil {
		return nil, err
	}
	out := make(chan *message.Message)
	go func() {
		defer close(out)
		for msg := range in {
			d.track(1)
			select {
			case out <- msg:
			case <-d.innerGone:
				d.track(-1)
				continue
			}
			go func() {
				defer d.track(-1)
				select {
				case <-msg.Acked():
				case <-msg.Nacked():
				case <-d.innerGone:
				}
			}()
		}
	}()
	return out, nil
}

func (d *drainingSubscriber) Close() error {
	d.closeOnce.Do(func() {
		d.mu.Lock()
		var idle chan struct{}
		if d.inflight > 0 {
			idle = make(chan struct{})
			d.idle = idle
		}
		d.mu.Unlock()
		if idle != nil {
			select {
			case <-idle:
			case <-time.After(d.timeout):
			}
		}
		d.closeErr = d.inner.Close()
		close(d.innerGone)
	})
	return d.closeErr
}

// 3. Each delivery. After Watermill's CorrelationID and PoisonQueue middlewares, the
// attempts middleware gives the delivery a state that lasts across its attempts.

// deliveryState follows one delivered message through its attempts. It lives in the
// message context, set by the attempts middleware (outside Retry), so the handler, the
// retry policy and the dead-letter publisher all see it.
type deliveryState struct {
	attempts      int
	batchFailures int // failed attempts in a batch of more than one claim
	aloneFailures int // failed attempts on its own
	lastErr       error
	// begin is called as the first attempt starts (see attempts).
	begin func()
}

type deliveryStateKey struct{}

func stateOf(msg *message.Message) *deliveryState {
	st, _ := msg.Context().Value(deliveryStateKey{}).(*deliveryState)
	return st
}

// consumer is the message handler of one Consume run.
type consumer struct {
	cfg     Config
	batcher *batcher
	// stopCtx is cancelled when the run begins to stop: back-off waits end early and no
	// further attempt starts.
	stopCtx context.Context
}

// attempts attaches a fresh deliveryState to each delivery and, once its first attempt
// has begun, makes its context end when the run stops.
//
// A delivery the router took gets that first attempt even when the run began to stop
// meanwhile (the batcher runs until the router has closed). The router handles the
// messages of a partition on goroutines of their own, so a later message may be handled
// before an earlier one has started; refusing the earlier one for the stop would leave a
// gap in the partition's acknowledged prefix, and Kafka, which commits only up to the
// first message not acknowledged, would deliver the later ones, handled already, again.
// After the first attempt the stop ends back-off waits, and shouldRetry refuses more.
func (c *consumer) attempts(h message.HandlerFunc) message.HandlerFunc {
	return func(msg *message.Message) ([]*message.Message, error) {
		var (
			cancel     context.CancelFunc
			unregister func() bool
		)
		st := &deliveryState{begin: func() { unregister = context.AfterFunc(c.stopCtx, cancel) }}
		orig := context.WithValue(msg.Context(), deliveryStateKey{}, st)
		ctx, cancel := context.WithCancel(orig)
		defer cancel()
		defer func() {
			if unregister != nil {
				unregister()
			}
		}()
		msg.SetContext(ctx)
		events, err := h(msg)
		// The dead-letter publisher runs after this returns and needs a live context.
		msg.SetContext(orig)
		return events, err
	}
}

// 4. Each attempt. Inside Watermill's Retry and Recoverer middlewares, the handler decodes
// the claim and submits it to the batcher, in the lane of its attempt.

var (
	// errUndecodable marks a message whose body is not a claim: retrying cannot help.
	errUndecodable = errors.New("undecodable order message")
	// errGaveUp marks a claim that failed on its own MaxRetries times.
	errGaveUp = errors.New("claim keeps failing")
)

// handleMessage is one attempt at one message: the claim joins a batch of its lane, or
// goes alone once its batches failed MaxRetries times or it already failed alone.
func (c *consumer) handleMessage(msg *message.Message) error {
	claim, err := claimwire.DecodeClaim(msg.Payload)
	if err != nil {
		return fmt.Errorf("%w %s: %w", errUndecodable, msg.UUID, err)
	}
	st := stateOf(msg)
	if st == nil { // not reached through the attempts middleware
		st = &deliveryState{}
	}
	st.attempts++
	if st.attempts == 1 && st.begin != nil {
		st.begin()
	}
	lane := st.attempts
	if st.batchFailures >= c.cfg.MaxRetries || st.aloneFailures > 0 {
		lane = 0
	}
	var sc trace.SpanContext
	if c.cfg.Tracer != nil {
		sc = claimwire.ExtractTrace(msg.Metadata)
	}
	res := c.batcher.submit(claim, lane, sc)
	if res.err == nil {
		return nil
	}
	if errors.Is(res.err, errStopping) {
		return res.err
	}
	st.lastErr = res.err
	if res.size <= 1 {
		st.aloneFailures++
	} else {
		st.batchFailures++
	}
	if st.aloneFailures >= c.cfg.MaxRetries {
		return fmt.Errorf("%w: order %d failed %d times: %w", errGaveUp, claim.OrderID, st.attempts, res.err)
	}
	return res.err
}

// 5. The batch. The batcher gathers claims by lane, cuts a batch by size or wait, starts
// its "orders process" span and calls the order writer's handler on a worker; every
// claim of the batch gets the batch's outcome.

// errStopping answers claims submitted after the consumer began to stop.
var errStopping = errors.New("queue: consumer is stopping")

// batcher turns claims submitted one at a time by concurrent message handlers into
// batches for one handle call each: a batch is cut when it holds size claims or when
// its first claim has waited wait. Claims are grouped by lane (the attempt number), so
// a batch being retried is retried with the claims it failed with and never drags
// fresh claims into its failures; lane 0 means "alone" and is handled at once.
type batcher struct {
	size   int
	wait   time.Duration
	handle func(context.Context, []domain.Claim) error
	ctx    context.Context // given to handle
	cancel context.CancelFunc
	// timeout bounds a handle call (0: none); abandoned counts the calls given up on
	// after twice as long.
	timeout   time.Duration
	abandoned *atomic.Uint64
	log       *slog.Logger
	// tracer traces batches (nil: off); backend names the messaging system in spans.
	tracer  trace.Tracer
	backend string

	in      chan *pendingClaim
	workers int
	freed   chan struct{} // a worker finished
	quit    chan struct{}
	exited  chan struct{}
	running sync.WaitGroup
}

type pendingClaim struct {
	claim domain.Claim
	lane  int
	// trace is the span context the claim's message carried (not valid: none).
	trace  trace.SpanContext
	result chan batchResult
}

// batchResult is the outcome of the batch a claim was handled in.
type batchResult struct {
	err  error
	size int // distinct claims in the batch
}

func newBatcher(ctx context.Context, cfg Config, handle func(context.Context, []domain.Claim) error, log *slog.Logger) *batcher {
	ctx, cancel := context.WithCancel(ctx)
	b := &batcher{
		size:    cfg.BatchSize,
		wait:    cfg.BatchWait,
		handle:  handle,
		ctx:     ctx,
		cancel:  cancel,
		timeout: cfg.HandleTimeout,
		log:     log,
		in:      make(chan *pendingClaim),
		workers: cfg.Workers,
		freed:   make(chan struct{}, cfg.Workers),
		quit:    make(chan struct{}),
		exited:  make(chan struct{}),
		backend: cfg.Backend,
	}
	if cfg.Tracer != nil {
		b.tracer = cfg.Tracer.Tracer(tracerName)
	}
	go b.loop()
	return b
}

// submit hands c to the batcher and waits for the outcome of its batch. Once accepted,
// a claim is always answered, even while the batcher stops.
func (b *batcher) submit(c domain.Claim, lane int, sc trace.SpanContext) batchResult {
	p := &pendingClaim{claim: c, lane: lane, trace: sc, result: make(chan batchResult, 1)}
	select {
	case b.in <- p:
	case <-b.exited:
		return batchResult{err: errStopping}
	}
	return <-p.result
}

type lane struct {
	items    []*pendingClaim
	deadline time.Time
}

// loop gathers claims into lanes and hands a lane to a free worker once it is full or
// its first claim waited BatchWait. While every worker is busy, lanes keep filling up
// to BatchSize, so batches grow with the load; a full lane that finds no free worker
// stops the intake until one is free.
func (b *batcher) loop() {
	defer close(b.exited)
	lanes := map[int]*lane{}
	var alone []*pendingClaim // lane 0: one claim per batch, at once
	free := b.workers
	timer := time.NewTimer(time.Hour)
	timer.Stop()

	// next picks what a free worker should take: a claim retried alone, else a full
	// lane, else the lane that waited longest if its time is up.
	next := func(now time.Time, all bool) (items []*pendingClaim, laneNo int, ok bool) {
		if len(alone) > 0 {
			p := alone[0]
			alone = alone[1:]
			return []*pendingClaim{p}, 0, true
		}
		var pick *lane
		pickNo := 0
		for k, l := range lanes {
			if len(l.items) >= b.size {
				pick, pickNo = l, k
				break
			}
			if (all || !now.Before(l.deadline)) && (pick == nil || l.deadline.Before(pick.deadline)) {
				pick, pickNo = l, k
			}
		}
		if pick == nil {
			return nil, 0, false
		}
		n := min(len(pick.items), b.size)
		items = pick.items[:n:n]
		if rest := pick.items[n:]; len(rest) > 0 {
			pick.items = rest
		} else {
			delete(lanes, pickNo)
		}
		return items, pickNo, true
	}

	for {
		now := time.Now()
		for free > 0 {
			items, laneNo, ok := next(now, false)
			if !ok {
				break
			}
			free--
			b.run(items, laneNo)
		}
		intake := b.in
		var earliest time.Time
		for _, l := range lanes {
			if len(l.items) >= b.size {
				intake = nil
			}
			if earliest.IsZero() || l.deadline.Before(earliest) {
				earliest = l.deadline
			}
		}
		timer.Stop()
		if free > 0 && !earliest.IsZero() {
			timer.Reset(time.Until(earliest))
		}
		select {
		case p := <-intake:
			if p.lane == 0 {
				alone = append(alone, p)
				continue
			}
			l := lanes[p.lane]
			if l == nil {
				l = &lane{deadline: time.Now().Add(b.wait)}
				lanes[p.lane] = l
			}
			l.items = append(l.items, p)
		case <-b.freed:
			free++
		case <-timer.C:
		case <-b.quit:
			timer.Stop()
			for {
				items, laneNo, ok := next(time.Now(), true)
				if !ok {
					return
				}
				for free == 0 {
					<-b.freed
					free++
				}
				free--
				b.run(items, laneNo)
			}
		}
	}
}

// run handles items on a worker of its own and reports the worker free afterwards.
func (b *batcher) run(items []*pendingClaim, laneNo int) {
	b.running.Add(1)
	go func() {
		defer func() {
			b.running.Done()
			b.freed <- struct{}{}
		}()
		// A claim delivered twice (a redelivery racing the original) is handled once.
		claims := make([]domain.Claim, 0, len(items))
		seen := make(map[int64]struct{}, len(items))
		for _, p := range items {
			if _, dup := seen[p.claim.OrderID]; dup {
				continue
			}
			seen[p.claim.OrderID] = struct{}{}
			claims = append(claims, p.claim)
		}
		ctx, span := b.traced(items, len(claims), laneNo)
		err := b.bounded(ctx, claims)
		tracespan.End(span, err)
		if err != nil {
			b.log.Warn("order batch failed", "size", len(claims), "attempt", laneNo, "alone", laneNo == 0, "error", err)
		}
		for _, p := range items {
			p.result <- batchResult{err: err, size: len(claims)}
		}
	}()
}

// traced returns the context a batch is handled in. With tracing on, a batch whose
// claims carry a sampled trace context runs in one "orders process" span: the child of
// its first such claim's publish span (so a batch of one continues its claim's trace,
// down to the SQL statements and the status events), linked to every claim's publish
// span (so each claim's trace finds the batch that wrote its order). Without tracing, or
// when no claim was sampled, it is the batcher's context and no span.
func (b *batcher) traced(items []*pendingClaim, claims, laneNo int) (context.Context, trace.Span) {
	if b.tracer == nil {
		return b.ctx, nil
	}
	var (
		parent trace.SpanContext
		links  []trace.Link
	)
	for _, p := range items {
		if !p.trace.IsValid() {
			continue
		}
		links = append(links, trace.Link{SpanContext: p.trace})
		if !parent.IsValid() && p.trace.IsSampled() {
			parent = p.trace
		}
	}
	if !parent.IsValid() {
		return b.ctx, nil
	}
	return b.tracer.Start(trace.ContextWithRemoteSpanContext(b.ctx, parent), "orders process",
		trace.WithSpanKind(trace.SpanKindConsumer), trace.WithLinks(links...),
		trace.WithAttributes(attribute.String("messaging.system", b.backend), attribute.String("messaging.operation.type", "process"),
			attribute.Int("messaging.batch.message_count", claims), attribute.Int("dealspot.queue.attempt", laneNo)))
}

// errAbandoned answers the claims of a batch whose handle call did not return in time.
var errAbandoned = errors.New("queue: order batch abandoned: its handler did not return in time")

// bounded handles claims within the batcher's timeout: the call's context is cancelled
// after it, and a call still running a timeout later is left behind (its result, if it
// ever comes, is dropped) and answered with errAbandoned, so a driver stuck on a dead
// connection never holds a worker, and with it every claim behind it, for good.
func (b *batcher) bounded(ctx context.Context, claims []domain.Claim) error {
	if b.timeout <= 0 {
		return b.safeHandle(ctx, claims)
	}
	ctx, cancel := context.WithTimeout(ctx, b.timeout)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- b.safeHandle(ctx, claims) }()
	grace := time.NewTimer(2 * b.timeout)
	defer grace.Stop()
	select {
	case err := <-done:
		return err
	case <-grace.C:
		if b.abandoned != nil {
			b.abandoned.Add(1)
		}
		b.log.Error("order batch handler did not return after its timeout; answering its claims with an error so they are retried",
			"size", len(claims), "timeout", b.timeout)
		return errAbandoned
	}
}

func (b *batcher) safeHandle(ctx context.Context, claims []domain.Claim) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("order handler panicked: %v\n%s", r, debug.Stack())
		}
	}()
	return b.handle(ctx, claims)
}

// stop handles what is still gathered, then waits up to timeout for running batches;
// after that their context is cancelled.
func (b *batcher) stop(timeout time.Duration) {
	close(b.quit)
	<-b.exited
	done := make(chan struct{})
	go func() {
		b.running.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(timeout):
		b.log.Warn("order batches still running after the drain timeout; cancelling them", "timeout", timeout)
		b.cancel()
		<-done
	}
	b.cancel()
}

// 6. A failed attempt. The Retry middleware asks shouldRetry whether to try again; a
// failure that cannot succeed goes to the PoisonQueue middleware, which writes the message
// to the dead-letter topic through deadLetterPublisher before it is acknowledged.

// shouldRetry is the Retry middleware's policy: everything is retried except a message
// that cannot be decoded, a claim that has used up its attempts, and anything once the
// run is stopping (the message is then left unacknowledged and delivered again later).
func (c *consumer) shouldRetry(p middleware.RetryParams) bool {
	if c.stopCtx.Err() != nil {
		return false
	}
	return !errors.Is(p.Err, errUndecodable) && !errors.Is(p.Err, errGaveUp) && !errors.Is(p.Err, errStopping)
}

// retrying retries a failed message with exponential backoff (doubling from initial up
// to max, at most maxRetries times) while shouldRetry agrees, as watermill's Retry
// middleware does — but a message handled at the first attempt, nearly every claim,
// costs it nothing (watermill's builds a backoff and its options for every message).
type retrying struct {
	maxRetries   int
	initial, max time.Duration
	shouldRetry  func(middleware.RetryParams) bool
}

func (r retrying) middleware(h message.HandlerFunc) message.HandlerFunc {
	return func(msg *message.Message) ([]*message.Message, error) {
		ctx := msg.Context()
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out, err := h(msg)
		delay := r.initial
		for retry := 0; err != nil && retry < r.maxRetries; retry++ {
			if !r.shouldRetry(middleware.RetryParams{RetryNum: retry, Err: err, Delay: delay}) {
				return out, err
			}
			t := time.NewTimer(delay)
			select {
			case <-ctx.Done():
				t.Stop()
				return nil, ctx.Err()
			case <-t.C:
			}
			msg.SetContext(ctx)
			out, err = h(msg)
			delay = min(2*delay, max(r.max, r.initial))
		}
		return out, err
	}
}

// poisonous tells the PoisonQueue middleware which failures go to the dead letter.
func poisonous(err error) bool {
	return errors.Is(err, errUndecodable) || errors.Is(err, errGaveUp)
}

// deadLetterPublisher is the PoisonQueue middleware's publisher: it writes the message
// to the dead-letter topic and then tells the application, which marks the order
// FAILED and returns its stock. The message is acknowledged after both.
type deadLetterPublisher struct {
	message.Publisher
	ctx  context.Context
	dead func(ctx context.Context, c domain.Claim, cause error)
	log  *slog.Logger
	// count, if set, counts the messages written to the dead-letter topic.
	count *deadLetterCount
}

func (d *deadLetterPublisher) Publish(topic string, msgs ...*message.Message) error {
	if err := d.Publisher.Publish(topic, msgs...); err != nil {
		return err
	}
	if d.count != nil {
		d.count.Add(uint64(len(msgs)))
	}
	for _, msg := range msgs {
		reason := msg.Metadata.Get(middleware.ReasonForPoisonedKey)
		claim, err := claimwire.DecodeClaim(msg.Payload)
		if err != nil {
			d.log.Error("undecodable order message moved to the dead letter",
				"message_uuid", msg.UUID, "topic", topic, "error", err)
			continue
		}
		var cause error
		if st := stateOf(msg); st != nil && st.lastErr != nil {
			cause = st.lastErr
		} else {
			cause = errors.New(reason)
		}
		d.log.Error("order claim moved to the dead letter",
			"order_id", strconv.FormatInt(claim.OrderID, 10), "voucher_id", claim.VoucherID,
			"topic", topic, "error", cause)
		d.dead(d.ctx, claim, cause)
	}
	return nil
}

// Close leaves the underlying publisher to the queue.
func (d *deadLetterPublisher) Close() error { return nil }
