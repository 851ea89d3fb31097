package queue

import (
	"context"
	"errors"
	"fmt"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/dealspot/dealspot/adapters/queue/amqp"
)

// amqpBackend uses one durable queue per topic on the default exchange, persistent
// messages, publisher confirms and manual acknowledgements, on amqp.Publisher and
// amqp.Subscriber, which survive the loss of the broker connection. A subscription hands
// out a channel's next delivery only after the previous one was acknowledged, so
// Consumers channels read the queue side by side to keep that many messages in flight.
// Publishing and consuming use a connection each, so that flow control on a busy
// publishing connection does not hold back acknowledgements.
type amqpBackend struct {
	cfg    Config
	logger watermill.LoggerAdapter
	pub    *amqp.Publisher
}

func openAMQPBackend(ctx context.Context, cfg Config, logger watermill.LoggerAdapter) (*amqpBackend, error) {
	pub := amqp.NewPublisher(cfg.AMQPURL, "dealspot orders: publish", nil, logger)
	// Declare the queues now: a message published to a queue that does not exist yet
	// would be confirmed and dropped.
	if err := pub.Declare(ctx, cfg.Namespace+ordersTopic, cfg.Namespace+deadLetterTopic); err != nil {
		_ = pub.Close()
		return nil, fmt.Errorf("declare queues: %w", err)
	}
	return &amqpBackend{cfg: cfg, logger: logger, pub: pub}, nil
}

func (b *amqpBackend) publisher() message.Publisher { return b.pub }
func (b *amqpBackend) ordersTopic(int64) string     { return b.cfg.Namespace + ordersTopic }
func (b *amqpBackend) deadLetterTopic() string      { return b.cfg.Namespace + deadLetterTopic }
func (b *amqpBackend) notSent(err error) bool       { return errors.Is(err, amqp.ErrNotSent) }
func (b *amqpBackend) close() error                 { return b.pub.Close() }

func (b *amqpBackend) subscribe() ([]subscription, func(), error) {
	inner := amqp.NewSubscriber(b.cfg.AMQPURL, "dealspot orders: consume", nil, b.logger)
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

func (b *amqpBackend) depth(ctx context.Context) ([]Depth, error) {
	queue := b.cfg.Namespace + ordersTopic
	n, err := b.pub.QueueDepth(ctx, queue)
	if err != nil {
		return nil, err
	}
	return []Depth{{Queue: queue, Waiting: int64(n), InFlight: -1}}, nil
}
