package amqp_test

import (
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/pubsub/tests"
	amqp091 "github.com/rabbitmq/amqp091-go"

	"github.com/dealspot/dealspot/adapters/queue/amqp"
	"github.com/dealspot/dealspot/adapters/queue/internal/queuetest"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// runID keeps queue names of concurrent test runs apart on the shared broker.
var runID = testsupport.RandomSuffix(6)

// Watermill's own contract suite, run against the Pub/Sub. The short variant keeps the
// default run fast; the stress tag runs the full one.

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
		ForceShort:                          !queuetest.FullSuite,
		GenerateTopicFunc: func(tctx tests.TestContext) string {
			return "t" + runID + "-" + string(tctx.TestID)
		},
	}, func(t *testing.T) (message.Publisher, message.Subscriber) {
		// Each on a connection of its own.
		pub := amqp.NewPublisher(url, "test publish", queueArgs, watermill.NopLogger{})
		sub := amqp.NewSubscriber(url, "test consume", queueArgs, watermill.NopLogger{})
		return pub, sub
	}, nil)
}
