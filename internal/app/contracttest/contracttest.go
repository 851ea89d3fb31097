// Package contracttest holds what the contract suites of the app's ports (authtest,
// seckilltest …) share: ids that keep cases apart on a shared server, a settable clock
// for stores that take time from the caller, and the runner of a suite's cases
// (RunCases).
package contracttest

import (
	"sync"
	"sync/atomic"
	"time"
)

// idBase keeps ids apart between runs on one server; idSeq within a run.
var (
	idBase = time.Now().UnixNano() % 1_000_000_000 * 1_000
	idSeq  atomic.Int64
)

// NewID returns an id no other case of this run uses.
func NewID() int64 { return idBase + idSeq.Add(1) }

// Clock is a settable clock for stores that take time from the caller, so time windows
// can be tested on a real server, which cannot fast-forward.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a clock standing at a fixed, whole-second instant.
func NewClock() *Clock {
	return &Clock{now: time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)}
}

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}
