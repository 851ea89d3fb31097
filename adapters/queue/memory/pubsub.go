// Package memory is the order queue's in-process Watermill Pub/Sub: Watermill's
// GoChannel, plus a hold for messages published to a topic nobody subscribes to yet.
package memory

import (
	"context"
	"sync"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/pubsub/gochannel"
)

// PubSub is Watermill's GoChannel plus a hold for topics nobody subscribes to.
//
// GoChannel hands every message to a subscriber on a goroutine of its own, without
// waiting for earlier messages to be acknowledged, so a single subscription keeps many
// messages in flight and batches fill by themselves. But it drops messages published
// while nobody subscribes; those are held here and handed to the next subscription of
// their topic. Nothing survives the process, and messages in flight to a subscription
// that ends are lost: the reconciler re-publishes claims lost that way.
type PubSub struct {
	gc *gochannel.GoChannel

	mu          sync.Mutex
	subscribers map[string]int
	held        map[string][]*message.Message
	closing     chan struct{}
	closeOnce   sync.Once
}

var (
	_ message.Publisher  = (*PubSub)(nil)
	_ message.Subscriber = (*PubSub)(nil)
)

// NewPubSub returns an empty Pub/Sub.
func NewPubSub(logger watermill.LoggerAdapter) *PubSub {
	return &PubSub{
		gc:          gochannel.NewGoChannel(gochannel.Config{}, logger),
		subscribers: map[string]int{},
		held:        map[string][]*message.Message{},
		closing:     make(chan struct{}),
	}
}

// Publish hands msgs to the topic's subscribers, or holds them while there are none.
func (p *PubSub) Publish(topic string, msgs ...*message.Message) error {
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

// Subscribe reads topic until ctx ends or the Pub/Sub is closed, starting with the
// messages held for it.
func (p *PubSub) Subscribe(ctx context.Context, topic string) (<-chan *message.Message, error) {
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

// Close ends every subscription.
func (p *PubSub) Close() error {
	p.closeOnce.Do(func() { close(p.closing) })
	return p.gc.Close()
}

// Held returns the messages held for topics nobody subscribes to yet.
func (p *PubSub) Held() map[string]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make(map[string]int, len(p.held))
	for topic, msgs := range p.held {
		out[topic] = len(msgs)
	}
	return out
}
