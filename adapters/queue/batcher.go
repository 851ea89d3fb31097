package queue

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

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

	in      chan *pendingClaim
	slots   chan struct{}
	quit    chan struct{}
	exited  chan struct{}
	running sync.WaitGroup
}

type pendingClaim struct {
	claim  domain.Claim
	lane   int
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
		size:   cfg.BatchSize,
		wait:   cfg.BatchWait,
		handle: handle,
		ctx:    ctx,
		cancel: cancel,
		log:    log,
		in:     make(chan *pendingClaim),
		slots:  make(chan struct{}, cfg.Workers),
		quit:   make(chan struct{}),
		exited: make(chan struct{}),
	}
	go b.loop()
	return b
}

// submit hands c to the batcher and waits for the outcome of its batch. Once accepted,
// a claim is always answered, even while the batcher stops.
func (b *batcher) submit(c domain.Claim, lane int) batchResult {
	p := &pendingClaim{claim: c, lane: lane, result: make(chan batchResult, 1)}
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

func (b *batcher) loop() {
	defer close(b.exited)
	lanes := map[int]*lane{}
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	rearm := func() {
		var earliest time.Time
		for _, l := range lanes {
			if earliest.IsZero() || l.deadline.Before(earliest) {
				earliest = l.deadline
			}
		}
		if earliest.IsZero() {
			timer.Stop()
			return
		}
		timer.Reset(time.Until(earliest))
	}
	for {
		select {
		case p := <-b.in:
			if p.lane == 0 {
				b.dispatch([]*pendingClaim{p}, 0)
				continue
			}
			l := lanes[p.lane]
			if l == nil {
				l = &lane{deadline: time.Now().Add(b.wait)}
				lanes[p.lane] = l
			}
			l.items = append(l.items, p)
			if len(l.items) >= b.size {
				delete(lanes, p.lane)
				b.dispatch(l.items, p.lane)
			}
			rearm()
		case <-timer.C:
			now := time.Now()
			for k, l := range lanes {
				if !now.Before(l.deadline) {
					delete(lanes, k)
					b.dispatch(l.items, k)
				}
			}
			rearm()
		case <-b.quit:
			timer.Stop()
			for k, l := range lanes {
				b.dispatch(l.items, k)
			}
			return
		}
	}
}

// dispatch waits for a free worker and handles items on it.
func (b *batcher) dispatch(items []*pendingClaim, laneNo int) {
	b.slots <- struct{}{}
	b.running.Add(1)
	go func() {
		defer func() {
			<-b.slots
			b.running.Done()
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
		err := b.safeHandle(claims)
		if err != nil {
			b.log.Warn("order batch failed", "size", len(claims), "attempt", laneNo, "alone", laneNo == 0, "error", err)
		}
		for _, p := range items {
			p.result <- batchResult{err: err, size: len(claims)}
		}
	}()
}

func (b *batcher) safeHandle(claims []domain.Claim) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("order handler panicked: %v\n%s", r, debug.Stack())
		}
	}()
	return b.handle(b.ctx, claims)
}
