package redis

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// Coalescing bounds one batcher's round trips. A call that finds the batcher idle (no
// batch waiting or on its way) goes to Redis at once, so a quiet server adds no delay.
// Calls arriving while a batch is on its way gather and go together as soon as it is
// back — or Window after the first of them, or once Max are waiting, whichever comes
// first. A zero Window turns coalescing off: every call is its own round trip.
type Coalescing struct {
	Window time.Duration
	Max    int
	// Observe, if set, is told the size of every batch sent.
	Observe func(n int)
}

// On reports whether calls are coalesced.
func (c Coalescing) On() bool { return c.Window > 0 }

// collector gathers concurrent calls into batches as Coalescing describes and hands each
// batch to send, in the goroutine of the call that completed it or of a timer.
type collector[T any] struct {
	window  time.Duration
	max     int
	observe func(int)
	send    func(batch []T)

	mu       sync.Mutex
	pending  []T
	timer    *time.Timer
	inFlight int // batches being sent
}

func newCollector[T any](c Coalescing, send func([]T)) *collector[T] {
	return &collector[T]{window: c.Window, max: max(c.Max, 1), observe: c.Observe, send: send}
}

// add queues call; its batch may be sent before add returns.
func (c *collector[T]) add(call T) {
	c.mu.Lock()
	var batch []T
	switch {
	case len(c.pending) == 0 && c.inFlight == 0:
		batch = []T{call}
	default:
		c.pending = append(c.pending, call)
		switch {
		case len(c.pending) >= c.max:
			batch = c.take()
		case len(c.pending) == 1:
			c.timer = time.AfterFunc(c.window, c.flushTimer)
		}
	}
	if batch != nil {
		c.inFlight++
	}
	c.mu.Unlock()
	if batch != nil {
		c.run(batch)
	}
}

// take removes the pending calls; c.mu is held.
func (c *collector[T]) take() []T {
	batch := c.pending
	c.pending = nil
	if c.timer != nil {
		c.timer.Stop()
		c.timer = nil
	}
	return batch
}

func (c *collector[T]) flushTimer() {
	c.mu.Lock()
	batch := c.take()
	if len(batch) > 0 {
		c.inFlight++
	}
	c.mu.Unlock()
	if len(batch) > 0 {
		c.run(batch)
	}
}

// run sends a batch counted in inFlight. The last batch in flight to come back sends
// what gathered meanwhile (in a goroutine of its own, so that this call's caller is not
// held up), without waiting for the window: under load a call waits about one round
// trip, and the window only bounds the wait when a round trip is slow.
func (c *collector[T]) run(batch []T) {
	if c.observe != nil {
		c.observe(len(batch))
	}
	c.send(batch)
	c.mu.Lock()
	c.inFlight--
	var next []T
	if c.inFlight == 0 && len(c.pending) > 0 {
		next = c.take()
		c.inFlight++
	}
	c.mu.Unlock()
	if next != nil {
		go c.run(next)
	}
}

// batcher sends concurrent commands to Redis together: one round trip for a whole batch
// instead of one each. Each command still runs on its own (a script stays atomic); only
// the network trip is shared. Commands are built by the caller and filled in by the batch.
type batcher struct {
	client goredis.UniversalClient
	calls  *collector[*batchCall]
}

type batchCall struct {
	cmds []goredis.Cmder
	done chan struct{}
}

func newBatcher(client goredis.UniversalClient, c Coalescing) *batcher {
	b := &batcher{client: client}
	b.calls = newCollector(c, b.flush)
	return b
}

// do queues cmds and waits until their batch has run; the cmds then hold the replies.
// An error from do itself is ctx's: the commands may still run, and its caller treats
// that like any lost reply.
func (b *batcher) do(ctx context.Context, cmds ...goredis.Cmder) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	call := &batchCall{cmds: cmds, done: make(chan struct{})}
	b.calls.add(call)
	return await(ctx, call.done)
}

// await waits until done is closed or ctx ends; a call answered by then counts as
// answered even if ctx ended meanwhile (a reply beats a lost one).
func await(ctx context.Context, done <-chan struct{}) error {
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		select {
		case <-done:
			return nil
		default:
			return ctx.Err()
		}
	}
}

// flush sends a batch as one pipeline, independent of any one caller's context.
func (b *batcher) flush(batch []*batchCall) {
	ctx := context.Background()
	_, _ = b.client.Pipelined(ctx, func(p goredis.Pipeliner) error {
		for _, call := range batch {
			for _, cmd := range call.cmds {
				_ = p.Process(ctx, cmd)
			}
		}
		return nil
	})
	for _, call := range batch {
		close(call.done)
	}
}

func isNoScript(err error) bool {
	var rerr goredis.Error
	return errors.As(err, &rerr) && strings.HasPrefix(rerr.Error(), "NOSCRIPT")
}
