package queue

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/dealspot/dealspot/internal/domain"
)

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
	log    *slog.Logger
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
		err := b.safeHandle(ctx, claims)
		endSpan(span, err)
		if err != nil {
			b.log.Warn("order batch failed", "size", len(claims), "attempt", laneNo, "alone", laneNo == 0, "error", err)
		}
		for _, p := range items {
			p.result <- batchResult{err: err, size: len(claims)}
		}
	}()
}

func (b *batcher) safeHandle(ctx context.Context, claims []domain.Claim) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("order handler panicked: %v\n%s", r, debug.Stack())
		}
	}()
	return b.handle(ctx, claims)
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
