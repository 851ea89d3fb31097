package kafka_test

import (
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/dealspot/dealspot/adapters/queue/internal/queuetest"
	"github.com/dealspot/dealspot/adapters/queue/kafka"
)

// Watermill's own contract suite, run against the Pub/Sub. The short variant keeps the
// default run fast; the stress tag runs the full one.

func TestWatermillContractKafka(t *testing.T) {
	t.Parallel()
	brokers := queuetest.StartKafka(t, kfake.AllowAutoTopicCreation(), kfake.DefaultNumPartitions(4))
	withGroup := func(t *testing.T, group string) (message.Publisher, message.Subscriber) {
		pub, err := kafka.NewPublisher(brokers, nil, watermill.NopLogger{})
		if err != nil {
			t.Fatal(err)
		}
		cfg := kafka.NewSaramaConfig()
		cfg.Consumer.Group.Heartbeat.Interval = 500 * time.Millisecond
		cfg.Consumer.Group.Rebalance.Timeout = 3 * time.Second
		sub, err := kafka.NewSubscriber(kafka.SubscriberConfig{
			Brokers:      brokers,
			Group:        group,
			Sarama:       cfg,
			Window:       64,
			DrainTimeout: 2 * time.Second,
		}, watermill.NopLogger{})
		if err != nil {
			_ = pub.Close()
			t.Fatal(err)
		}
		return pub, sub
	}
	queuetest.RunConsumerGroupSuite(t, queuetest.ConsumerGroupFeatures(), func() string { return "test" }, withGroup)
}
