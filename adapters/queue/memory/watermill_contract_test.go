package memory_test

import (
	"testing"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/pubsub/tests"

	"github.com/dealspot/dealspot/adapters/queue/internal/queuetest"
	"github.com/dealspot/dealspot/adapters/queue/memory"
)

// Watermill's own contract suite, run against the Pub/Sub. The short variant keeps the
// default run fast; the stress tag runs the full one.

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
		ForceShort:            !queuetest.FullSuite,
	}
	constructor := func(t *testing.T) (message.Publisher, message.Subscriber) {
		ps := memory.NewPubSub(watermill.NopLogger{})
		return ps, ps
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
