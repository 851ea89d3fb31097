package redisstream_test

import (
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/pubsub/tests"
	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/adapters/queue/internal/queuetest"
	"github.com/dealspot/dealspot/adapters/queue/redisstream"
	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// runID keeps stream names of concurrent test runs apart on shared servers.
var runID = testsupport.RandomSuffix(6)

// Watermill's own contract suite, run against the Pub/Sub. The short variant keeps the
// default run fast; the stress tag runs the full one on the real server and the cluster.

func TestWatermillContractRedisStreams(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		newClient := func(t *testing.T) goredis.UniversalClient {
			return redis.CloneClient(conn.Client, 20)
		}
		withGroup := func(t *testing.T, group string) (message.Publisher, message.Subscriber) {
			subClient := newClient(t)
			t.Cleanup(func() { _ = subClient.Close() })
			// The publisher closes its client when closed; the subscriber does not.
			pub, err := redisstream.NewPublisher(newClient(t), nil, watermill.NopLogger{})
			if err != nil {
				t.Fatal(err)
			}
			sub, err := redisstream.NewSubscriber(redisstream.SubscriberConfig{
				Client:        subClient,
				Group:         group,
				Window:        64,
				Block:         50 * time.Millisecond,
				ClaimIdle:     time.Second,
				ClaimInterval: time.Second / 3,
				DrainTimeout:  500 * time.Millisecond,
			}, watermill.NopLogger{})
			if err != nil {
				t.Fatal(err)
			}
			return pub, sub
		}
		f := queuetest.ConsumerGroupFeatures()
		if conn.IsEmbedded() {
			// The embedded server runs the short sizes under the stress tag too. The
			// full ones (10,000 messages, 50 subscribers) load the subscriber, the same
			// code on every server, and the real server and the cluster run them (CI
			// requires both). On the embedded server they mostly load the server
			// itself, in the test binary under the race detector with one lock for
			// every command: there one bulk read of 10,000 messages took 6m31s, and
			// starved the tests beside it. What only this run checks, that the
			// embedded server answers the subscriber's commands as Redis does, the
			// short sizes check.
			f.ForceShort = true
		}
		f.NewSubscriberReceivesOldMessages = true
		f.GenerateTopicFunc = func(tctx tests.TestContext) string { return "t" + runID + "-" + string(tctx.TestID) }
		queuetest.RunConsumerGroupSuite(t, f, watermill.NewShortUUID, withGroup)
	})
}
