package queue

import (
	"context"
	"sync"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"
)

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
