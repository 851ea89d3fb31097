package kafka_test

import (
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/pubsub/tests"
	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/dealspot/dealspot/adapters/queue/kafka"
)

// startKafka runs an in-process Kafka-protocol broker for the test.
func startKafka(t *testing.T, opts ...kfake.Opt) []string {
	t.Helper()
	cluster, err := kfake.NewCluster(append([]kfake.Opt{kfake.NumBrokers(1)}, opts...)...)
	if err != nil {
		t.Fatalf("start kfake: %v", err)
	}
	t.Cleanup(cluster.Close)
	return cluster.ListenAddrs()
}

// Watermill's own contract suite, run against the Pub/Sub. The short variant keeps the
// default run fast; the stress tag runs the full one.

func TestWatermillContractKafka(t *testing.T) {
	t.Parallel()
	brokers := startKafka(t, kfake.AllowAutoTopicCreation(), kfake.DefaultNumPartitions(4))
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
	tests.TestPubSub(t, tests.Features{
		ConsumerGroups:      true,
		ExactlyOnceDelivery: false,
		GuaranteedOrder:     false,
		Persistent:          true,
		ForceShort:          !fullWatermillSuite,
	}, func(t *testing.T) (message.Publisher, message.Subscriber) {
		return withGroup(t, "test")
	}, withGroup)
}
