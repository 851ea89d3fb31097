package queue

import (
	"errors"
	"fmt"

	"github.com/IBM/sarama"
	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/dealspot/dealspot/internal/app/seckill"
)

// errNotSent marks a publish whose message is known not to be queued: the broker
// refused it, or it was never sent (no connection, the channel or the publisher closed
// before the send). Any other publish error leaves the outcome unknown: the message may
// be queued.
var errNotSent = errors.New("message not sent")

// notSent marks err as a publish known not to have queued its message.
func notSent(err error) error {
	if err == nil || errors.Is(err, errNotSent) {
		return err
	}
	return fmt.Errorf("%w (%w)", err, errNotSent)
}

// notEnqueued is what PublishClaim returns for a claim known not to be queued: it
// wraps seckill.ErrNotEnqueued, so the claim path undoes the reservation.
func notEnqueued(err error) error {
	return fmt.Errorf("%w (%w)", err, seckill.ErrNotEnqueued)
}

// kafkaPublisher classifies the errors of watermill-kafka's publisher. The producer
// retries sends whose outcome it does not know, so after a failure only what it refuses
// before sending (marshalling, size and configuration checks) and what the broker
// refuses outright (a message too large or corrupt) is known not to be queued.
type kafkaPublisher struct{ message.Publisher }

func (p kafkaPublisher) Publish(topic string, msgs ...*message.Message) error {
	err := p.Publisher.Publish(topic, msgs...)
	if err != nil && kafkaNotSent(err) {
		return notSent(err)
	}
	return err
}

func kafkaNotSent(err error) bool {
	var cfgErr sarama.ConfigurationError
	return errors.As(err, &cfgErr) ||
		errors.Is(err, sarama.ErrMessageSizeTooLarge) ||
		errors.Is(err, sarama.ErrInvalidMessage) ||
		errors.Is(err, sarama.ErrClosedClient)
}
