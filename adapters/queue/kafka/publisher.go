package kafka

import (
	"errors"
	"fmt"

	"github.com/IBM/sarama"
	"github.com/ThreeDotsLabs/watermill"
	wmkafka "github.com/ThreeDotsLabs/watermill-kafka/v3/pkg/kafka"
	"github.com/ThreeDotsLabs/watermill/message"
)

// ErrNotSent marks a publish whose message is known not to be queued. Any other
// publish error leaves the outcome unknown: the message may be queued.
var ErrNotSent = errors.New("message not sent")

// Publisher is watermill-kafka's publisher (acknowledged by all in-sync replicas) with
// its errors classified. The producer retries sends whose outcome it does not know, so
// after a failure only what it refuses before sending (marshalling, size and
// configuration checks) and what the broker refuses outright (a message too large or
// corrupt) is known not to be queued; those errors wrap ErrNotSent.
type Publisher struct{ pub *wmkafka.Publisher }

var _ message.Publisher = (*Publisher)(nil)

// NewPublisher returns a publisher to brokers. key, when not nil, gives each message
// its partition key (messages with one key stay in order on one partition); nil keeps
// watermill-kafka's default marshaler, without keys.
func NewPublisher(brokers []string, key func(msg *message.Message) string, logger watermill.LoggerAdapter) (*Publisher, error) {
	var marshaler wmkafka.Marshaler = wmkafka.DefaultMarshaler{}
	if key != nil {
		marshaler = wmkafka.NewWithPartitioningMarshaler(func(_ string, msg *message.Message) (string, error) {
			return key(msg), nil
		})
	}
	pub, err := wmkafka.NewPublisher(wmkafka.PublisherConfig{
		Brokers:               brokers,
		Marshaler:             marshaler,
		OverwriteSaramaConfig: NewSaramaConfig(),
	}, logger)
	if err != nil {
		return nil, err
	}
	return &Publisher{pub: pub}, nil
}

// Publish publishes msgs to topic and returns once they were acknowledged.
func (p *Publisher) Publish(topic string, msgs ...*message.Message) error {
	err := p.pub.Publish(topic, msgs...)
	if err != nil && notSent(err) {
		return fmt.Errorf("%w (%w)", err, ErrNotSent)
	}
	return err
}

// Close closes the producer.
func (p *Publisher) Close() error { return p.pub.Close() }

func notSent(err error) bool {
	var cfgErr sarama.ConfigurationError
	return errors.As(err, &cfgErr) ||
		errors.Is(err, sarama.ErrMessageSizeTooLarge) ||
		errors.Is(err, sarama.ErrInvalidMessage) ||
		errors.Is(err, sarama.ErrClosedClient)
}
