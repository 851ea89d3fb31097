package redis

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// Coalescing bounds one batcher's pipelines: commands arriving within Window of the first
// waiting one (or until Max are waiting) go to Redis as one pipeline. A zero Window turns
// coalescing off: every command is its own round trip.
type Coalescing struct {
	Window time.Duration
	Max    int
	// Observe, if set, is told the size of every batch sent.
	Observe func(n int)
}

// On reports whether commands are coalesced.
func (c Coalescing) On() bool { return c.Window > 0 }

// batcher sends concurrent commands to Redis together: one round trip for a whole batch
// instead of one each. Each command still runs on its own (a script stays atomic); only
// the network trip is shared. Commands are built by the caller and filled in by the batch.
type batcher struct {
	client  goredis.UniversalClient
	window  time.Duration
	max     int
	observe func(int)

	mu      sync.Mutex
	pending []*batchCall
	timer   *time.Timer
}

type batchCall struct {
	cmd  goredis.Cmder
	done chan struct{}
}

func newBatcher(client goredis.UniversalClient, c Coalescing) *batcher {
	return &batcher{client: client, window: c.Window, max: max(c.Max, 1), observe: c.Observe}
}

// do queues cmd and waits until its batch has run; cmd then holds the reply. An error
// from do itself is ctx's: the command may still run, and its caller treats that like
// any lost reply.
func (b *batcher) do(ctx context.Context, cmd goredis.Cmder) error {
	call := &batchCall{cmd: cmd, done: make(chan struct{})}
	b.mu.Lock()
	b.pending = append(b.pending, call)
	var batch []*batchCall
	switch {
	case len(b.pending) >= b.max:
		batch = b.take()
	case len(b.pending) == 1:
		b.timer = time.AfterFunc(b.window, b.flushTimer)
	}
	b.mu.Unlock()
	if batch != nil {
		b.flush(batch)
	}
	select {
	case <-call.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// take removes the pending calls; b.mu is held.
func (b *batcher) take() []*batchCall {
	batch := b.pending
	b.pending = nil
	if b.timer != nil {
		b.timer.Stop()
		b.timer = nil
	}
	return batch
}

func (b *batcher) flushTimer() {
	b.mu.Lock()
	batch := b.take()
	b.mu.Unlock()
	if len(batch) > 0 {
		b.flush(batch)
	}
}

// flush sends a batch as one pipeline, independent of any one caller's context.
func (b *batcher) flush(batch []*batchCall) {
	if b.observe != nil {
		b.observe(len(batch))
	}
	ctx := context.Background()
	_, _ = b.client.Pipelined(ctx, func(p goredis.Pipeliner) error {
		for _, call := range batch {
			_ = p.Process(ctx, call.cmd)
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
