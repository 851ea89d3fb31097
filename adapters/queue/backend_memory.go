package queue

import (
	"context"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/dealspot/dealspot/adapters/queue/memory"
)

// memoryBackend keeps order messages in process, in a memory.PubSub.
type memoryBackend struct {
	cfg Config
	ps  *memory.PubSub
}

func newMemoryBackend(cfg Config, logger watermill.LoggerAdapter) *memoryBackend {
	return &memoryBackend{cfg: cfg, ps: memory.NewPubSub(logger)}
}

func (m *memoryBackend) publisher() message.Publisher { return m.ps }
func (m *memoryBackend) ordersTopic(int64) string     { return m.cfg.Namespace + ordersTopic }
func (m *memoryBackend) deadLetterTopic() string      { return m.cfg.Namespace + deadLetterTopic }
func (m *memoryBackend) close() error                 { return m.ps.Close() }

// notSent: the in-process Pub/Sub fails only once closed, having kept nothing.
func (m *memoryBackend) notSent(error) bool { return true }

func (m *memoryBackend) subscribe() ([]subscription, func(), error) {
	return []subscription{{
		name:  "orders",
		topic: m.cfg.Namespace + ordersTopic,
		// The router closes its subscribers when it stops; the Pub/Sub must outlive a
		// Consume run because it is also the publisher.
		sub: subscriptionOnly{m.ps},
	}}, func() {}, nil
}

// subscriptionOnly is a subscriber whose Close leaves the underlying Pub/Sub open; the
// subscription itself ends with its context.
type subscriptionOnly struct{ message.Subscriber }

func (subscriptionOnly) Close() error { return nil }

// depth reports the messages held while nobody subscribes; those handed to a
// subscription live in its goroutines and are not counted.
func (m *memoryBackend) depth(context.Context) ([]Depth, error) {
	topic := m.cfg.Namespace + ordersTopic
	return []Depth{{Queue: topic, Waiting: int64(m.ps.Held()[topic]), InFlight: -1}}, nil
}
