// Package subscriptions is what the queue's own Watermill subscribers (Redis Streams,
// Kafka) share: the set of running subscriptions that Close stops and waits for.
package subscriptions

import (
	"context"
	"sync"
)

// Set tracks a subscriber's running subscriptions. The zero value is not usable: call
// New.
type Set struct {
	closing   chan struct{}
	closeOnce sync.Once
	mu        sync.Mutex
	closed    bool
	running   sync.WaitGroup
}

// New returns an open set.
func New() *Set { return &Set{closing: make(chan struct{})} }

// Begin counts a new subscription in; false once the set is closed. Each true Begin is
// matched by one Done.
func (s *Set) Begin() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.running.Add(1)
	return true
}

// Done counts a subscription out.
func (s *Set) Done() { s.running.Done() }

// OnStop calls stop, once, when ctx is done or the set is closed, whichever comes first.
func (s *Set) OnStop(ctx context.Context, stop func()) {
	go func() {
		select {
		case <-ctx.Done():
		case <-s.closing:
		}
		stop()
	}()
}

// Close stops every subscription and waits until each has called Done. It is safe to
// call more than once.
func (s *Set) Close() {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.closed = true
		s.mu.Unlock()
		close(s.closing)
	})
	s.running.Wait()
}
