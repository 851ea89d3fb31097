package queue

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/IBM/sarama"
	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill-kafka/v3/pkg/kafka"
	"github.com/ThreeDotsLabs/watermill/message"
)

// kafkaBackend publishes with watermill-kafka (key = voucher id, so one voucher's
// claims stay in order on one partition) and consumes with partitionSubscriber.
type kafkaBackend struct {
	cfg    Config
	logger watermill.LoggerAdapter
	pub    *kafka.Publisher
}

// newSaramaConfig is the client configuration shared by producer, consumer and admin.
func newSaramaConfig() *sarama.Config {
	c := sarama.NewConfig()
	c.Version = sarama.V2_1_0_0
	c.ClientID = "dealspot"
	c.Producer.RequiredAcks = sarama.WaitForAll
	c.Producer.Return.Successes = true
	c.Producer.Retry.Max = 10
	c.Consumer.Offsets.Initial = sarama.OffsetOldest
	c.Consumer.Return.Errors = true
	c.Metadata.Retry.Backoff = 250 * time.Millisecond
	return c
}

func openKafkaBackend(ctx context.Context, cfg Config, logger watermill.LoggerAdapter, log *slog.Logger) (*kafkaBackend, error) {
	b := &kafkaBackend{cfg: cfg, logger: logger}
	if err := b.ensureTopics(ctx, log); err != nil {
		return nil, err
	}
	pub, err := kafka.NewPublisher(kafka.PublisherConfig{
		Brokers: cfg.KafkaBrokers,
		Marshaler: kafka.NewWithPartitioningMarshaler(func(_ string, msg *message.Message) (string, error) {
			return msg.Metadata.Get(MetadataVoucherID), nil
		}),
		OverwriteSaramaConfig: newSaramaConfig(),
	}, logger)
	if err != nil {
		return nil, err
	}
	b.pub = pub
	return b, nil
}

// ensureTopics creates the orders and dead-letter topics when missing.
func (b *kafkaBackend) ensureTopics(ctx context.Context, log *slog.Logger) error {
	admin, err := sarama.NewClusterAdmin(b.cfg.KafkaBrokers, newSaramaConfig())
	if err != nil {
		return fmt.Errorf("connect to kafka: %w", err)
	}
	defer admin.Close()
	existing, err := admin.ListTopics()
	if err != nil {
		return fmt.Errorf("list kafka topics: %w", err)
	}
	replicas := b.cfg.KafkaReplicationFactor
	if replicas <= 0 {
		brokers, _, err := admin.DescribeCluster()
		if err != nil {
			return fmt.Errorf("describe kafka cluster: %w", err)
		}
		replicas = int16(min(3, max(1, len(brokers))))
	}
	for _, topic := range []string{b.cfg.Namespace + ordersTopic, b.cfg.Namespace + deadLetterTopic} {
		if err := ctx.Err(); err != nil {
			return err
		}
		if _, ok := existing[topic]; ok {
			continue
		}
		err := admin.CreateTopic(topic, &sarama.TopicDetail{
			NumPartitions:     int32(b.cfg.KafkaPartitions),
			ReplicationFactor: replicas,
		}, false)
		if err != nil && !errors.Is(err, sarama.ErrTopicAlreadyExists) {
			return fmt.Errorf("create kafka topic %s: %w", topic, err)
		}
		log.Info("created kafka topic", "topic", topic, "partitions", b.cfg.KafkaPartitions, "replicas", replicas)
	}
	return nil
}

func (b *kafkaBackend) publisher() message.Publisher { return kafkaPublisher{b.pub} }
func (b *kafkaBackend) ordersTopic(int64) string     { return b.cfg.Namespace + ordersTopic }
func (b *kafkaBackend) deadLetterTopic() string      { return b.cfg.Namespace + deadLetterTopic }
func (b *kafkaBackend) close() error                 { return b.pub.Close() }

// subscribe joins the consumer group with Consumers members; each keeps up to
// BatchSize messages per partition it owns in flight.
func (b *kafkaBackend) subscribe() ([]subscription, func(), error) {
	sub, err := newPartitionSubscriber(partitionSubscriberConfig{
		Brokers:      b.cfg.KafkaBrokers,
		Group:        b.cfg.Group,
		Sarama:       newSaramaConfig(),
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
