// Package queuetest holds what the order queue's tests share: the in-process Kafka
// broker, and the run of Watermill's contract suite (pubsub/tests.TestPubSub) against
// every Pub/Sub.
package queuetest

import (
	"testing"

	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/pubsub/tests"
	"github.com/twmb/franz-go/pkg/kfake"
)

// StartKafka runs an in-process Kafka-protocol broker for the test and returns its
// addresses.
func StartKafka(t *testing.T, opts ...kfake.Opt) []string {
	t.Helper()
	cluster, err := kfake.NewCluster(append([]kfake.Opt{kfake.NumBrokers(1)}, opts...)...)
	if err != nil {
		t.Fatalf("start kfake: %v", err)
	}
	t.Cleanup(cluster.Close)
	return cluster.ListenAddrs()
}

// ConsumerGroupFeatures are what the consumer-group Pub/Subs (Redis Streams, Kafka)
// promise Watermill's suite: consumer groups, persistence, at-least-once delivery in no
// guaranteed order. The suite runs short unless FullSuite.
func ConsumerGroupFeatures() tests.Features {
	return tests.Features{
		ConsumerGroups:      true,
		ExactlyOnceDelivery: false,
		GuaranteedOrder:     false,
		Persistent:          true,
		ForceShort:          !FullSuite,
	}
}

// RunConsumerGroupSuite runs Watermill's contract suite with features f on the
// Pub/Subs withGroup returns; the tests that need no particular group get group().
func RunConsumerGroupSuite(t *testing.T, f tests.Features, group func() string, withGroup tests.ConsumerGroupPubSubConstructor) {
	t.Helper()
	tests.TestPubSub(t, f, func(t *testing.T) (message.Publisher, message.Subscriber) {
		return withGroup(t, group())
	}, withGroup)
}
