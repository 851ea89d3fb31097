package queue

import (
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill-kafka/v3/pkg/kafka"
	"github.com/ThreeDotsLabs/watermill-redisstream/pkg/redisstream"
	"github.com/ThreeDotsLabs/watermill/message"
	amqp091 "github.com/rabbitmq/amqp091-go"
	goredis "github.com/redis/go-redis/v9"
)

// The Pub/Subs the backends are built from, for Watermill's own contract suite.

// NewMemoryPubSub returns the Pub/Sub the memory backend uses.
func NewMemoryPubSub(logger watermill.LoggerAdapter) (message.Publisher, message.Subscriber) {
	ps := newMemoryPubSub(logger)
	return ps, ps
}

// NewStreamPubSub returns the redis backend's publisher and subscriber; each gets its
// own client (the publisher closes its client when closed; the subscriber does not, so
// the caller closes subClient).
func NewStreamPubSub(pubClient, subClient *goredis.Client, group string, claimIdle, drain time.Duration, logger watermill.LoggerAdapter) (message.Publisher, message.Subscriber, error) {
	pub, err := redisstream.NewPublisher(redisstream.PublisherConfig{Client: pubClient}, logger)
	if err != nil {
		return nil, nil, err
	}
	sub, err := newStreamSubscriber(streamSubscriberConfig{
		Client:       subClient,
		Group:        group,
		Window:       64,
		Block:        50 * time.Millisecond,
		ClaimIdle:    claimIdle,
		DrainTimeout: drain,
	}, logger)
	if err != nil {
		return nil, nil, err
	}
	return pub, sub, nil
}

// NewPartitionPubSub returns the kafka backend's publisher and subscriber.
func NewPartitionPubSub(brokers []string, group string, drain time.Duration, logger watermill.LoggerAdapter) (message.Publisher, message.Subscriber, error) {
	pub, err := kafka.NewPublisher(kafka.PublisherConfig{
		Brokers:               brokers,
		Marshaler:             kafka.DefaultMarshaler{},
		OverwriteSaramaConfig: newSaramaConfig(),
	}, logger)
	if err != nil {
		return nil, nil, err
	}
	cfg := newSaramaConfig()
	cfg.Consumer.Group.Heartbeat.Interval = 500 * time.Millisecond
	cfg.Consumer.Group.Rebalance.Timeout = 3 * time.Second
	sub, err := newPartitionSubscriber(partitionSubscriberConfig{
		Brokers:      brokers,
		Group:        group,
		Sarama:       cfg,
		Window:       64,
		DrainTimeout: drain,
	}, logger)
	if err != nil {
		_ = pub.Close()
		return nil, nil, err
	}
	return pub, sub, nil
}

// NewAMQPPubSub returns the amqp backend's publisher and subscriber, each on a
// connection of its own, declaring queues with queueArgs.
func NewAMQPPubSub(url string, queueArgs amqp091.Table, logger watermill.LoggerAdapter) (message.Publisher, message.Subscriber) {
	pub := newAMQPPublisher(newAMQPConnector(url, "test publish", logger), amqpPublishChannels, queueArgs)
	sub := newAMQPSubscriber(newAMQPConnector(url, "test consume", logger), amqpPrefetch, queueArgs, logger)
	return pub, sub
}
