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
	// ready for delivery; memory: the messages held while nobody subscribes; Kafka: the
	// consumer group's lag, the sum over partitions of the newest offset less the group's
	// committed offset (from the oldest offset where the group committed none), in flight
	// included. The group commits once a second, so Kafka's count trails acknowledgements
	// by about that long.
	Waiting int64
	// InFlight counts the messages delivered to a consumer and not yet acknowledged, or
	// -1 where the backend does not say (only Redis Streams does: the group's pending
	// entries).
	InFlight int64
}

// Depth reads how many messages wait in the order queues: one entry per order queue
// (Redis: per shard stream; others: the orders topic). The dead-letter topic is not
// reported (nobody consumes it; DeadLetters counts what this process moved there). Its
// cost is bounded: one round trip to Redis for every shard stream at once, one passive
// queue declare on AMQP, nothing on the memory backend; on Kafka, one committed-offsets
// request to the group's coordinator and two ListOffsets requests (newest, oldest) per
// partition leader, each covering the partitions that broker leads, over a client the
// queue keeps open. Sarama takes no context: on Kafka, Depth returns when ctx is done and
// the read it leaves finishes in the background before another starts.
func (q *Queue) Depth(ctx context.Context) ([]Depth, error) {
	return q.backend.depth(ctx)
}

// DeadLetters counts the messages this process moved to the dead-letter topic.
func (q *Queue) DeadLetters() uint64 { return q.deadLetters.Load() }

// AbandonedBatches counts the order batches this process gave up waiting for (see
// Config.HandleTimeout).
func (q *Queue) AbandonedBatches() uint64 { return q.abandoned.Load() }

// deadLetterCount is the counter the dead-letter publisher adds to.
type deadLetterCount = atomic.Uint64
