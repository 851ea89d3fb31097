// Package notifyqueue carries the notification events the use cases report (likes,
// comments, follows, notes, sales, order moves) to the inbox's writer.
//
// A like, a comment or a follow must never wait for its notification, nor fail for it:
// Notify only puts the event in a bounded buffer in the process (Buffer), and drops it
// (counted, logged) when the buffer is full — the writer or the broker then lags far
// behind, and the action itself is stored either way. One worker drains the buffer in
// batches and hands each batch on:
//
//   - with the in-process queue (QUEUE=memory, the embedded default), to the writer
//     directly: events still in the buffer when the process dies are lost;
//   - with Redis Streams, AMQP or Kafka, to the Broker, which publishes the batch as one
//     message on a topic of its own; every node's consumer hands the messages to the
//     writer and acknowledges them once written. Only the events of the last few
//     milliseconds (the buffer's Linger) can then be lost with the process; those
//     published wait in the broker for a writer to come back.
//
// A batch that fails is handed again a few times (the writer's handling is idempotent),
// then dropped with an error in the log. Every event given up on is counted by reason
// (Drops).
package notifyqueue

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// Config tunes the buffer. Zero values take the defaults.
type Config struct {
	// Capacity is how many events may wait (default 10000).
	Capacity int
	// MaxBatch is the most events handed to the writer at once (default 1000).
	MaxBatch int
	// Linger is how long the worker waits for more events after the first of a batch
	// (default 10ms): a flood of likes becomes few, large batches.
	Linger time.Duration
	// Attempts is how often a failing batch is handed to the writer (default 5); Backoff
	// the first wait between attempts (default 100ms, doubling).
	Attempts int
	Backoff  time.Duration
	// Drops counts the events given up on (nil: not counted).
	Drops Drops
	// FailReason is the reason a batch the handler kept failing on is counted under
	// (default write_failed; publish_failed where the handler publishes).
	FailReason string
}

// Buffer is the queue. Notify may be called from any goroutine; Run drains.
type Buffer struct {
	cfg     Config
	log     *slog.Logger
	events  chan domain.NotificationEvent
	dropped atomic.Int64

	// mu guards closed: Notify holds it shared, Close exclusively (a send on the
	// closed channel would panic).
	mu     sync.RWMutex
	closed bool
	// warnedAt is when a drop was last logged (Unix nanoseconds).
	warnedAt atomic.Int64
}

// New returns an empty buffer.
func New(cfg Config, log *slog.Logger) *Buffer {
	if cfg.Capacity <= 0 {
		cfg.Capacity = 10_000
	}
	if cfg.MaxBatch <= 0 {
		cfg.MaxBatch = 1000
	}
	if cfg.Linger <= 0 {
		cfg.Linger = 10 * time.Millisecond
	}
	if cfg.Attempts <= 0 {
		cfg.Attempts = 5
	}
	if cfg.Backoff <= 0 {
		cfg.Backoff = 100 * time.Millisecond
	}
	if cfg.Drops == nil {
		cfg.Drops = func(string, int) {}
	}
	if cfg.FailReason == "" {
		cfg.FailReason = ReasonWriteFailed
	}
	if log == nil {
		log = slog.Default()
	}
	return &Buffer{cfg: cfg, log: log, events: make(chan domain.NotificationEvent, cfg.Capacity)}
}

// Notify puts e in the buffer without waiting; when the buffer is full, or closed, e is
// dropped (and counted).
func (b *Buffer) Notify(_ context.Context, e domain.NotificationEvent) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.closed {
		b.dropped.Add(1)
		b.cfg.Drops(ReasonClosed, 1)
		return
	}
	select {
	case b.events <- e:
	default:
		n := b.dropped.Add(1)
		b.cfg.Drops(ReasonBufferFull, 1)
		now, last := time.Now().UnixNano(), b.warnedAt.Load()
		if now-last >= int64(time.Second) && b.warnedAt.CompareAndSwap(last, now) {
			b.log.Warn("notification buffer full: events dropped", slog.Int64("dropped_total", n), slog.Int("capacity", b.cfg.Capacity))
		}
	}
}

// Dropped counts the events dropped so far, for any reason.
func (b *Buffer) Dropped() int64 { return b.dropped.Load() }

// Run hands the events to handle in batches, in the order they came, until ctx ends or
// the buffer is closed; then it hands over what is left, once, and returns.
func (b *Buffer) Run(ctx context.Context, handle func(ctx context.Context, events []domain.NotificationEvent) error) {
	batch := make([]domain.NotificationEvent, 0, b.cfg.MaxBatch)
	for {
		var e domain.NotificationEvent
		var ok bool
		select {
		case e, ok = <-b.events:
		case <-ctx.Done():
			b.drain(handle)
			return
		}
		if !ok {
			return // closed and drained
		}
		batch = append(batch[:0], e)
		linger := time.NewTimer(b.cfg.Linger)
	fill:
		for len(batch) < b.cfg.MaxBatch {
			select {
			case e, ok := <-b.events:
				if !ok {
					break fill
				}
				batch = append(batch, e)
			case <-linger.C:
				break fill
			case <-ctx.Done():
				break fill
			}
		}
		linger.Stop()
		b.hand(ctx, batch, handle)
	}
}

// hand gives one batch to handle, again after a failure, up to Attempts times.
func (b *Buffer) hand(ctx context.Context, batch []domain.NotificationEvent, handle func(context.Context, []domain.NotificationEvent) error) {
	wait := b.cfg.Backoff
	for attempt := 1; ; attempt++ {
		err := handle(context.WithoutCancel(ctx), batch)
		if err == nil {
			return
		}
		if attempt >= b.cfg.Attempts || ctx.Err() != nil {
			b.log.Error("notification events dropped: their handler keeps failing", slog.Int("events", len(batch)),
				slog.Int("attempts", attempt), slog.Any("error", err))
			b.dropped.Add(int64(len(batch)))
			b.cfg.Drops(b.cfg.FailReason, len(batch))
			return
		}
		b.log.Warn("cannot write notifications; retrying", slog.Int("events", len(batch)), slog.Any("error", err))
		select {
		case <-time.After(wait):
		case <-ctx.Done():
		}
		wait *= 2
	}
}

// drain hands over what is still in the buffer, once, after Run was asked to stop.
func (b *Buffer) drain(handle func(context.Context, []domain.NotificationEvent) error) {
	b.Close()
	var batch []domain.NotificationEvent
	for e := range b.events {
		batch = append(batch, e)
		if len(batch) == b.cfg.MaxBatch {
			b.last(batch, handle)
			batch = batch[:0]
		}
	}
	if len(batch) > 0 {
		b.last(batch, handle)
	}
}

// drainTimeout bounds the last hand-over at shutdown.
const drainTimeout = 5 * time.Second

func (b *Buffer) last(batch []domain.NotificationEvent, handle func(context.Context, []domain.NotificationEvent) error) {
	ctx, cancel := context.WithTimeout(context.Background(), drainTimeout)
	defer cancel()
	if err := handle(ctx, batch); err != nil {
		b.log.Error("notification events dropped at shutdown", slog.Int("events", len(batch)), slog.Any("error", err))
		b.dropped.Add(int64(len(batch)))
		b.cfg.Drops(b.cfg.FailReason, len(batch))
	}
}

// Close stops taking events; Run hands over those in the buffer and returns.
func (b *Buffer) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.closed {
		b.closed = true
		close(b.events)
	}
}
