package queue_test

import (
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/pubsub/tests"
	amqp091 "github.com/rabbitmq/amqp091-go"
	goredis "github.com/redis/go-redis/v9"
	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/dealspot/dealspot/adapters/queue"
	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// Watermill's own contract suite, run against the Pub/Subs the backends are built from.
// The short variant keeps the default run fast; the stress tag runs the full one.

// The memory Pub/Sub is not persistent: messages in flight to a subscription that ends
// are gone, so TestSubscribeCtx and TestContinueAfterErrors (a later subscription must
// receive what an earlier one nacked) do not apply; every other test of the suite runs.
func TestWatermillContractMemory(t *testing.T) {
	t.Parallel()
	features := tests.Features{
		ConsumerGroups:        false,
		ExactlyOnceDelivery:   true,
		GuaranteedOrder:       false,
		Persistent:            false,
		RequireSingleInstance: true,
		ForceShort:            !fullWatermillSuite,
	}
	constructor := func(t *testing.T) (message.Publisher, message.Subscriber) {
		return queue.NewMemoryPubSub(watermill.NopLogger{})
	}
	for name, test := range map[string]func(*testing.T, tests.TestContext, tests.PubSubConstructor){
		"TestPublishSubscribe":                  tests.TestPublishSubscribe,
		"TestConcurrentSubscribe":               tests.TestConcurrentSubscribe,
		"TestConcurrentSubscribeMultipleTopics": tests.TestConcurrentSubscribeMultipleTopics,
		"TestResendOnError":                     tests.TestResendOnError,
		"TestNoAck":                             tests.TestNoAck,
		"TestContinueAfterSubscribeClose":       tests.TestContinueAfterSubscribeClose,
		"TestConcurrentClose":                   tests.TestConcurrentClose,
		"TestPublishSubscribeInOrder":           tests.TestPublishSubscribeInOrder,
		"TestPublisherClose":                    tests.TestPublisherClose,
		"TestTopic":                             tests.TestTopic,
		"TestMessageCtx":                        tests.TestMessageCtx,
		"TestNewSubscriberReceivesOldMessages":  tests.TestNewSubscriberReceivesOldMessages,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			test(t, tests.TestContext{TestID: tests.NewTestID(), Features: features}, constructor)
		})
	}
}

func TestWatermillContractRedisStreams(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		newClient := func(t *testing.T) *goredis.Client {
			opts := *conn.Client.Options()
			opts.PoolSize = 20
			return goredis.NewClient(&opts)
		}
		withGroup := func(t *testing.T, group string) (message.Publisher, message.Subscriber) {
			subClient := newClient(t)
			t.Cleanup(func() { _ = subClient.Close() })
			pub, sub, err := queue.NewStreamPubSub(newClient(t), subClient, group, time.Second, 500*time.Millisecond, watermill.NopLogger{})
			if err != nil {
				t.Fatal(err)
			}
			return pub, sub
		}
		tests.TestPubSub(t, tests.Features{
			ConsumerGroups:                   true,
			ExactlyOnceDelivery:              false,
			GuaranteedOrder:                  false,
			Persistent:                       true,
			NewSubscriberReceivesOldMessages: true,
			ForceShort:                       !fullWatermillSuite,
			GenerateTopicFunc: func(tctx tests.TestContext) string {
				return "t" + runID + "-" + string(tctx.TestID)
			},
		}, func(t *testing.T) (message.Publisher, message.Subscriber) {
			return withGroup(t, watermill.NewShortUUID())
		}, withGroup)
	})
}

func TestWatermillContractKafka(t *testing.T) {
	t.Parallel()
	brokers := startKafka(t, kfake.AllowAutoTopicCreation(), kfake.DefaultNumPartitions(4))
	withGroup := func(t *testing.T, group string) (message.Publisher, message.Subscriber) {
		pub, sub, err := queue.NewPartitionPubSub(brokers, group, 2*time.Second, watermill.NopLogger{})
		if err != nil {
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

// The suite declares a queue per topic on the shared broker; they expire once unused.
func TestWatermillContractAMQP(t *testing.T) {
	t.Parallel()
	url := testsupport.Require(t, testsupport.EnvAMQP)
	queueArgs := amqp091.Table{"x-expires": int32(time.Minute / time.Millisecond)}
	tests.TestPubSub(t, tests.Features{
		ConsumerGroups:                      false,
		ExactlyOnceDelivery:                 false,
		GuaranteedOrder:                     true,
		GuaranteedOrderWithSingleSubscriber: true,
		Persistent:                          true,
		ForceShort:                          !fullWatermillSuite,
		GenerateTopicFunc: func(tctx tests.TestContext) string {
			return "t" + runID + "-" + string(tctx.TestID)
		},
	}, func(t *testing.T) (message.Publisher, message.Subscriber) {
		return queue.NewAMQPPubSub(url, queueArgs, watermill.NopLogger{})
	}, nil)
}
