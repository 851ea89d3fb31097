package queue

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
)

// amqpPrefetch is how many deliveries the broker may push to one consumer channel
// ahead of its acknowledgements.
const amqpPrefetch = 4

// amqpPublishChannels is how many channels the publisher spreads its publishes over.
const amqpPublishChannels = 8

// amqpBackend uses one durable queue per topic on the default exchange, persistent
// messages, publisher confirms and manual acknowledgements, on amqpPublisher and
// amqpSubscriber, which survive the loss of the broker connection. A subscription hands
// out a channel's next delivery only after the previous one was acknowledged, so
// Consumers channels read the queue side by side to keep that many messages in flight.
// Publishing and consuming use a connection each, so that flow control on a busy
// publishing connection does not hold back acknowledgements.
type amqpBackend struct {
	cfg    Config
	logger watermill.LoggerAdapter
	pub    *amqpPublisher
}

func openAMQPBackend(ctx context.Context, cfg Config, logger watermill.LoggerAdapter) (*amqpBackend, error) {
	pub := newAMQPPublisher(newAMQPConnector(cfg.AMQPURL, "dealspot orders: publish", logger), amqpPublishChannels, nil)
	// Declare the queues now: a message published to a queue that does not exist yet
	// would be confirmed and dropped.
	if err := pub.declare(ctx, cfg.Namespace+ordersTopic, cfg.Namespace+deadLetterTopic); err != nil {
		_ = pub.Close()
		return nil, fmt.Errorf("declare queues: %w", err)
	}
	return &amqpBackend{cfg: cfg, logger: logger, pub: pub}, nil
}

func (b *amqpBackend) publisher() message.Publisher { return b.pub }
func (b *amqpBackend) ordersTopic(int64) string     { return b.cfg.Namespace + ordersTopic }
func (b *amqpBackend) deadLetterTopic() string      { return b.cfg.Namespace + deadLetterTopic }
func (b *amqpBackend) close() error                 { return b.pub.Close() }

func (b *amqpBackend) subscribe() ([]subscription, func(), error) {
	inner := newAMQPSubscriber(newAMQPConnector(b.cfg.AMQPURL, "dealspot orders: consume", b.logger), amqpPrefetch, nil, b.logger)
	sub := newDrainingSubscriber(inner, b.cfg.DrainTimeout)
	subs := make([]subscription, 0, b.cfg.Consumers)
	for i := range b.cfg.Consumers {
		subs = append(subs, subscription{
			name:  fmt.Sprintf("orders-%d", i),
			topic: b.cfg.Namespace + ordersTopic,
			sub:   sub,
		})
	}
	return subs, func() { _ = sub.Close() }, nil
}

// drainingSubscriber delays closing the subscriber it wraps until the messages it
// delivered were acknowledged or negatively acknowledged (or timeout passed). The
// router closes subscribers as soon as it begins to stop, and amqpSubscriber would then
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
