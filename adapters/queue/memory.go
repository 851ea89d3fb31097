package queue

import (
	"sync"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/pubsub/gochannel"
)

// memoryBackend is Watermill's in-process GoChannel. GoChannel hands every message to
// its subscribers on a goroutine of its own, without waiting for earlier messages to be
// acknowledged, so one subscription already keeps many messages in flight and batches
// fill by themselves.
//
// GoChannel drops messages published while nobody subscribes; claims published while
// no consumer runs are therefore held here and published when one starts. Nothing
// survives the process: the reconciler re-publishes claims lost that way.
type memoryBackend struct {
	cfg Config
	gc  *gochannel.GoChannel
	pub *memoryPublisher
}

func newMemoryBackend(cfg Config, logger watermill.LoggerAdapter) *memoryBackend {
	gc := newGoChannel(logger)
	return &memoryBackend{
		cfg: cfg,
		gc:  gc,
		pub: &memoryPublisher{gc: gc, orders: cfg.Namespace + ordersTopic},
	}
}

func newGoChannel(logger watermill.LoggerAdapter) *gochannel.GoChannel {
	return gochannel.NewGoChannel(gochannel.Config{}, logger)
}

func (m *memoryBackend) publisher() message.Publisher { return m.pub }
func (m *memoryBackend) ordersTopic(int64) string     { return m.cfg.Namespace + ordersTopic }
func (m *memoryBackend) deadLetterTopic() string      { return m.cfg.Namespace + deadLetterTopic }
func (m *memoryBackend) consuming(on bool)            { m.pub.setLive(on) }
func (m *memoryBackend) close() error                 { return m.gc.Close() }
func (m *memoryBackend) subscribe() ([]subscription, func(), error) {
	return []subscription{{
		name:  "orders",
		topic: m.cfg.Namespace + ordersTopic,
		// The router closes its subscribers when it stops; the GoChannel must outlive
		// a Consume run because it is also the publisher.
		sub: subscriptionOnly{m.gc},
	}}, func() {}, nil
}

// memoryPublisher holds order messages while no consumer runs.
type memoryPublisher struct {
	gc     *gochannel.GoChannel
	orders string

	mu   sync.Mutex
	live bool
	held []*message.Message
}

func (p *memoryPublisher) Publish(topic string, msgs ...*message.Message) error {
	if topic == p.orders {
		p.mu.Lock()
		defer p.mu.Unlock()
		if !p.live {
			for _, m := range msgs {
				p.held = append(p.held, m.Copy())
			}
			return nil
		}
	}
	return p.gc.Publish(topic, msgs...)
}

func (p *memoryPublisher) setLive(on bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.live = on
	if on && len(p.held) > 0 {
		held := p.held
		p.held = nil
		// GoChannel.Publish does not wait for subscribers.
		_ = p.gc.Publish(p.orders, held...)
	}
}

func (p *memoryPublisher) Close() error { return nil }

// subscriptionOnly is a subscriber whose Close leaves the underlying Pub/Sub open; the
// subscription itself ends with its context.
type subscriptionOnly struct{ message.Subscriber }

func (subscriptionOnly) Close() error { return nil }
