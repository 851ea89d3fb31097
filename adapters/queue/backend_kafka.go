package queue

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/dealspot/dealspot/adapters/queue/kafka"
)

// kafkaBackend publishes with kafka.Publisher (key = voucher id, so one voucher's claims
// stay in order on one partition) and consumes with kafka.Subscriber.
type kafkaBackend struct {
	cfg    Config
	logger watermill.LoggerAdapter
	pub    *kafka.Publisher
	// lag reads the consumer group's lag for depth, over a client kept open.
	lag *kafka.LagReader
}

func openKafkaBackend(ctx context.Context, cfg Config, logger watermill.LoggerAdapter, log *slog.Logger) (*kafkaBackend, error) {
	b := &kafkaBackend{cfg: cfg, logger: logger}
	err := kafka.EnsureTopics(ctx, cfg.KafkaBrokers, []string{cfg.Namespace + ordersTopic, cfg.Namespace + deadLetterTopic},
		kafka.TopicSpec{Partitions: cfg.KafkaPartitions, Replicas: cfg.KafkaReplicationFactor}, log)
	if err != nil {
		return nil, err
	}
	pub, err := kafka.NewPublisher(cfg.KafkaBrokers, func(msg *message.Message) string {
		return msg.Metadata.Get(MetadataVoucherID)
	}, logger)
	if err != nil {
		return nil, err
	}
	lag, err := kafka.NewLagReader(cfg.KafkaBrokers, cfg.Group)
	if err != nil {
		_ = pub.Close()
		return nil, err
	}
	b.pub, b.lag = pub, lag
	return b, nil
}

func (b *kafkaBackend) publisher() message.Publisher { return b.pub }
func (b *kafkaBackend) ordersTopic(int64) string     { return b.cfg.Namespace + ordersTopic }
func (b *kafkaBackend) deadLetterTopic() string      { return b.cfg.Namespace + deadLetterTopic }
func (b *kafkaBackend) notSent(err error) bool       { return errors.Is(err, kafka.ErrNotSent) }

func (b *kafkaBackend) close() error {
	return errors.Join(b.pub.Close(), b.lag.Close())
}

// subscribe joins the consumer group with Consumers members; each keeps up to
// BatchSize messages per partition it owns in flight.
func (b *kafkaBackend) subscribe() ([]subscription, func(), error) {
	sub, err := kafka.NewSubscriber(kafka.SubscriberConfig{
		Brokers:      b.cfg.KafkaBrokers,
		Group:        b.cfg.Group,
		Sarama:       kafka.NewSaramaConfig(),
		Window:       b.cfg.BatchSize,
		DrainTimeout: b.cfg.DrainTimeout,
	}, b.logger)
	if err != nil {
		return nil, nil, err
	}
	subs := make([]subscription, 0, b.cfg.Consumers)
	for i := range b.cfg.Consumers {
		subs = append(subs, subscription{
			name:  fmt.Sprintf("orders-%d", i),
			topic: b.cfg.Namespace + ordersTopic,
			sub:   sub,
		})
	}
	return subs, func() {}, nil
}

// depth reports the consumer group's lag on the orders topic (see Queue.Depth). The
// dead-letter topic is left out: no consumer group reads it, so it has no lag.
func (b *kafkaBackend) depth(ctx context.Context) ([]Depth, error) {
	topic := b.cfg.Namespace + ordersTopic
	n, err := b.lag.Lag(ctx, topic)
	if err != nil {
		return nil, fmt.Errorf("read kafka consumer group lag: %w", err)
	}
	return []Depth{{Queue: topic, Waiting: n, InFlight: -1}}, nil
}
