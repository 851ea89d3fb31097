package queue

import (
	"context"
	"sync"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/pubsub/gochannel"
)

// memoryBackend keeps order messages in process, in a memoryPubSub.
type memoryBackend struct {
	cfg Config
	ps  *memoryPubSub
}

func newMemoryBackend(cfg Config, logger watermill.LoggerAdapter) *memoryBackend {
	return &memoryBackend{cfg: cfg, ps: newMemoryPubSub(logger)}
}

func (m *memoryBackend) publisher() message.Publisher { return m.ps }
func (m *memoryBackend) ordersTopic(int64) string     { return m.cfg.Namespace + ordersTopic }
func (m *memoryBackend) deadLetterTopic() string      { return m.cfg.Namespace + deadLetterTopic }
func (m *memoryBackend) close() error                 { return m.ps.Close() }

func (m *memoryBackend) subscribe() ([]subscription, func(), error) {
	return []subscription{{
		name:  "orders",
		topic: m.cfg.Namespace + ordersTopic,
		// The router closes its subscribers when it stops; the Pub/Sub must outlive a
		// Consume run because it is also the publisher.
		sub: subscriptionOnly{m.ps},
	}}, func() {}, nil
}

// memoryPubSub is Watermill's GoChannel plus a hold for topics nobody subscribes to.
//
// GoChannel hands every message to a subscriber on a goroutine of its own, without
// waiting for earlier messages to be acknowledged, so a single subscription keeps many
// messages in flight and batches fill by themselves. But it drops messages published
// while nobody subscribes; those are held here and handed to the next subscription of
// their topic. Nothing survives the process, and messages in flight to a subscription
// that ends are lost: the reconciler re-publishes claims lost that way.
type memoryPubSub struct {
	gc *gochannel.GoChannel

	mu          sync.Mutex
	subscribers map[string]int
	held        map[string][]*message.Message
	closing     chan struct{}
	closeOnce   sync.Once
}

func newMemoryPubSub(logger watermill.LoggerAdapter) *memoryPubSub {
	return &memoryPubSub{
		gc:          gochannel.NewGoChannel(gochannel.Config{}, logger),
		subscribers: map[string]int{},
		held:        map[string][]*message.Message{},
		closing:     make(chan struct{}),
	}
}

func (p *memoryPubSub) Publish(topic string, msgs ...*message.Message) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.subscribers[topic] == 0 {
		for _, m := range msgs {
			p.held[topic] = append(p.held[topic], m.Copy())
		}
		return nil
	}
	// GoChannel.Publish does not wait for subscribers.
	return p.gc.Publish(topic, msgs...)
}

func (p *memoryPubSub) Subscribe(ctx context.Context, topic string) (<-chan *message.Message, error) {
	ctx, cancel := context.WithCancel(ctx)
	ch, err := p.gc.Subscribe(ctx, topic)
	if err != nil {
		cancel()
		return nil, err
	}
	p.mu.Lock()
	p.subscribers[topic]++
	held := p.held[topic]
	delete(p.held, topic)
	if len(held) > 0 {
		err = p.gc.Publish(topic, held...)
	}
	p.mu.Unlock()
	if err != nil {
		cancel()
		return nil, err
	}
	go func() {
		select {
		case <-ctx.Done():
		case <-p.closing:
		}
		cancel()
		p.mu.Lock()
		p.subscribers[topic]--
		p.mu.Unlock()
	}()
	return ch, nil
}

func (p *memoryPubSub) Close() error {
	p.closeOnce.Do(func() { close(p.closing) })
	return p.gc.Close()
}

// subscriptionOnly is a subscriber whose Close leaves the underlying Pub/Sub open; the
// subscription itself ends with its context.
type subscriptionOnly struct{ message.Subscriber }

func (subscriptionOnly) Close() error { return nil }
