package queue

import (
	"context"
	"sync/atomic"
)

// Depth is what one queue (a topic, stream or broker queue) holds at one instant.
type Depth struct {
	// Queue names the queue: the topic, with the namespace (orders:{s3} on Redis).
	Queue string
	// Waiting counts the messages not yet acknowledged. Redis Streams: the stream's
	// length (acknowledged entries are deleted), in flight included; AMQP: the messages
	// ready for delivery; memory: the messages held while nobody subscribes.
	Waiting int64
	// InFlight counts the messages delivered to a consumer and not yet acknowledged, or
	// -1 where the backend does not say (only Redis Streams does: the group's pending
	// entries).
	InFlight int64
}

// Depth reads how many messages wait in the order queues. Its cost is bounded: one
// round trip to Redis for every shard stream at once, one passive queue declare on
// AMQP, nothing on the memory backend. Kafka reports nothing (a consumer group's lag
// needs offset requests to every partition leader).
func (q *Queue) Depth(ctx context.Context) ([]Depth, error) {
	return q.backend.depth(ctx)
}

// DeadLetters counts the messages this process moved to the dead-letter topic.
func (q *Queue) DeadLetters() uint64 { return q.deadLetters.Load() }

// deadLetterCount is the counter the dead-letter publisher adds to.
type deadLetterCount = atomic.Uint64
