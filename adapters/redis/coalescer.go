package redis

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// coalescer sends concurrent runs of one script to Redis together: calls arriving within
// window (or until max are waiting) go out as one pipeline of EVALSHAs, one round trip
// for all of them instead of one each. Each call still runs as its own atomic script.
type coalescer struct {
	client goredis.UniversalClient
	script *goredis.Script
	window time.Duration
	max    int

	mu      sync.Mutex
	pending []*scriptCall
	timer   *time.Timer
}

type scriptCall struct {
	keys []string
	args []any
	res  any
	err  error
	done chan struct{}
}

func newCoalescer(client goredis.UniversalClient, script *goredis.Script, window time.Duration, max int) *coalescer {
	return &coalescer{client: client, script: script, window: window, max: max}
}

// run queues one script run and waits for its result.
func (c *coalescer) run(ctx context.Context, keys []string, args ...any) (any, error) {
	call := &scriptCall{keys: keys, args: args, done: make(chan struct{})}
	c.mu.Lock()
	c.pending = append(c.pending, call)
	var batch []*scriptCall
	switch {
	case len(c.pending) >= c.max:
		batch = c.take()
	case len(c.pending) == 1:
		c.timer = time.AfterFunc(c.window, c.flushTimer)
	}
	c.mu.Unlock()
	if batch != nil {
		c.flush(batch)
	}
	select {
	case <-call.done:
		return call.res, call.err
	case <-ctx.Done():
		// The script may still run; its caller treats that like any lost reply.
		return nil, ctx.Err()
	}
}

// take removes the pending calls; c.mu is held.
func (c *coalescer) take() []*scriptCall {
	batch := c.pending
	c.pending = nil
	if c.timer != nil {
		c.timer.Stop()
		c.timer = nil
	}
	return batch
}

func (c *coalescer) flushTimer() {
	c.mu.Lock()
	batch := c.take()
	c.mu.Unlock()
	if len(batch) > 0 {
		c.flush(batch)
	}
}

// flush sends a batch as one pipeline. Calls that find the script missing (a restarted
// server) are run again one by one, which loads it.
func (c *coalescer) flush(batch []*scriptCall) {
	ctx := context.Background()
	cmds := make([]*goredis.Cmd, len(batch))
	_, _ = c.client.Pipelined(ctx, func(p goredis.Pipeliner) error {
		for i, call := range batch {
			cmds[i] = c.script.EvalSha(ctx, p, call.keys, call.args...)
		}
		return nil
	})
	for i, call := range batch {
		res, err := cmds[i].Result()
		if err != nil && isNoScript(err) {
			res, err = c.script.Run(ctx, c.client, call.keys, call.args...).Result()
		}
		call.res, call.err = res, err
		close(call.done)
	}
}

func isNoScript(err error) bool {
	var rerr goredis.Error
	return errors.As(err, &rerr) && strings.HasPrefix(rerr.Error(), "NOSCRIPT")
}
