package queue

import (
	"context"

	"github.com/ThreeDotsLabs/watermill/message"
)

// backend is one Pub/Sub behind the queue.
type backend interface {
	// publisher publishes order messages and dead letters.
	publisher() message.Publisher
	// ordersTopic is the topic a voucher's claims are published to.
	ordersTopic(voucherID int64) string
	deadLetterTopic() string
	// notSent reports whether a publish error means the message is known not to be
	// queued; otherwise the outcome is unknown.
	notSent(err error) bool
	// subscribe opens what one Consume run reads; release frees what the router does
	// not close itself, after the router stopped.
	subscribe() (subs []subscription, release func(), err error)
	// depth reads how many messages wait in the order queues (see Queue.Depth).
	depth(ctx context.Context) ([]Depth, error)
	close() error
}

// subscription is one router handler: one subscriber reading one topic.
type subscription struct {
	name  string
	topic string
	sub   message.Subscriber
}
