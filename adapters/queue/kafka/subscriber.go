// Package kafka is the order queue's Kafka Pub/Sub: watermill-kafka's publisher, with
// its errors classified, and a consumer-group subscriber that keeps many messages of a
// partition in flight.
package kafka

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/IBM/sarama"
	"github.com/ThreeDotsLabs/watermill"
	wmkafka "github.com/ThreeDotsLabs/watermill-kafka/v3/pkg/kafka"
	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/dealspot/dealspot/adapters/queue/internal/subscriptions"
)

// SubscriberConfig configures a Subscriber.
type SubscriberConfig struct {
	Brokers []string
	Group   string
	// Sarama is the client configuration (NewSaramaConfig if nil).
	Sarama *sarama.Config
	// Window is how many messages of one partition may be delivered and not yet
	// acknowledged at a time.
	Window int
	// NackResendSleep delays the redelivery of a nacked message (100ms if zero).
	NackResendSleep time.Duration
	// DrainTimeout bounds how long a stopping subscription (or a session ending for a
	// rebalance) waits for delivered messages to be acknowledged.
	DrainTimeout time.Duration
	// ReconnectSleep is the pause before joining the group again after an error (1s if
	// zero).
	ReconnectSleep time.Duration
}

// check applies the defaults of what only the subscriber knows about and refuses a
// configuration that leaves the queue's own settings unset.
func (c *SubscriberConfig) check() error {
	switch {
	case len(c.Brokers) == 0:
		return errors.New("kafka subscriber needs brokers")
	case c.Group == "":
		return errors.New("kafka subscriber needs a consumer group")
	case c.Window <= 0 || c.DrainTimeout <= 0:
		return errors.New("kafka subscriber needs a positive Window and DrainTimeout")
	}
	if c.Sarama == nil {
		c.Sarama = NewSaramaConfig()
	}
	if c.NackResendSleep <= 0 {
		c.NackResendSleep = 100 * time.Millisecond
	}
	if c.ReconnectSleep <= 0 {
		c.ReconnectSleep = time.Second
	}
	return nil
}

// Subscriber is a Watermill subscriber for a Kafka consumer group that keeps up
// to Window messages of each partition in flight, where watermill-kafka's subscriber
// hands out the next message of a partition only after the previous one was
// acknowledged. Acknowledgements may come in any order; the committed offset of a
// partition advances only over messages that are all acknowledged, so nothing is
// skipped when the consumer dies.
type Subscriber struct {
	cfg    SubscriberConfig
	logger watermill.LoggerAdapter

	subs *subscriptions.Set
}

// NewSubscriber returns a subscriber; Brokers, Group, Window and DrainTimeout must be
// set.
func NewSubscriber(cfg SubscriberConfig, logger watermill.LoggerAdapter) (*Subscriber, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if logger == nil {
		logger = watermill.NopLogger{}
	}
	return &Subscriber{cfg: cfg, logger: logger, subs: subscriptions.New()}, nil
}

// Subscribe joins the consumer group for topic. The channel closes after ctx is done or
// the subscriber is closed, once delivered messages were acknowledged or DrainTimeout
// passed; what was not acknowledged is delivered again to whoever owns the partition
// next.
func (s *Subscriber) Subscribe(ctx context.Context, topic string) (<-chan *message.Message, error) {
	if !s.subs.Begin() {
		return nil, errors.New("kafka subscriber closed")
	}

	group, err := sarama.NewConsumerGroup(s.cfg.Brokers, s.cfg.Group, s.cfg.Sarama)
	if err != nil {
		s.subs.Done()
		return nil, fmt.Errorf("join consumer group %s: %w", s.cfg.Group, err)
	}
	out := make(chan *message.Message)
	stop := make(chan struct{})
	runCtx, cancel := context.WithCancel(context.Background())
	s.subs.OnStop(ctx, func() {
		close(stop)
		cancel()
	})
	fields := watermill.LogFields{"provider": "kafka", "topic": topic, "consumer_group": s.cfg.Group}
	if s.cfg.Sarama.Consumer.Return.Errors {
		go func() {
			for err := range group.Errors() {
				s.logger.Error("Kafka consumer group error", err, fields)
			}
		}()
	}
	h := &partitionHandler{s: s, out: out, stop: stop, msgParent: context.WithoutCancel(ctx), fields: fields}
	go func() {
		defer s.subs.Done()
		defer close(out)
		defer func() {
			if err := group.Close(); err != nil {
				s.logger.Error("Closing Kafka consumer group failed", err, fields)
			}
		}()
		for {
			// Consume returns at every rebalance; join again until stopped.
			if err := group.Consume(runCtx, []string{topic}, h); err != nil {
				if errors.Is(err, sarama.ErrClosedConsumerGroup) {
					return
				}
				s.logger.Error("Kafka consume failed", err, fields)
				select {
				case <-stop:
				case <-time.After(s.cfg.ReconnectSleep):
				}
			}
			select {
			case <-stop:
				return
			default:
			}
		}
	}()
	return out, nil
}

// Close stops every subscription and waits until their channels are closed.
func (s *Subscriber) Close() error {
	s.subs.Close()
	return nil
}

// partitionHandler is the sarama group handler of one subscription.
type partitionHandler struct {
	s         *Subscriber
	out       chan *message.Message
	stop      chan struct{}
	msgParent context.Context
	fields    watermill.LogFields
}

func (h *partitionHandler) Setup(sarama.ConsumerGroupSession) error   { return nil }
func (h *partitionHandler) Cleanup(sarama.ConsumerGroupSession) error { return nil }

// ConsumeClaim delivers one partition's messages in offset order, up to Window of them
// unacknowledged at a time, until the session or the subscription ends; then it waits
// (up to DrainTimeout) for the delivered ones, so their offsets are committed when the
// session is released. Because delivery is in order, the messages handed out always
// form a prefix of the partition, and a graceful stop commits all of them.
func (h *partitionHandler) ConsumeClaim(sess sarama.ConsumerGroupSession, claim sarama.ConsumerGroupClaim) error {
	cfg := h.s.cfg
	ended := make(chan struct{}) // session over or subscription stopping
	go func() {
		select {
		case <-sess.Context().Done():
		case <-h.stop:
		}
		close(ended)
	}()
	msgCtx, cancelMsgs := context.WithCancel(h.msgParent)
	defer cancelMsgs()
	offsets := &offsetTracker{}
	slots := make(chan struct{}, cfg.Window)
	var deliveries sync.WaitGroup

read:
	for {
		select {
		case slots <- struct{}{}:
		case <-ended:
			break read
		}
		var km *sarama.ConsumerMessage
		select {
		case m, ok := <-claim.Messages():
			if !ok {
				<-slots
				break read
			}
			km = m
		case <-ended:
			<-slots
			break read
		}
		msg := unmarshalKafkaMessage(km)
		cancel, ok := h.send(msgCtx, msg, ended)
		if !ok {
			<-slots
			break read
		}
		offsets.add(km.Offset)
		deliveries.Add(1)
		go func() {
			defer deliveries.Done()
			defer func() { <-slots }()
			if h.awaitAck(msgCtx, ended, msg, cancel) {
				if next, moved := offsets.done(km.Offset); moved {
					sess.MarkOffset(km.Topic, km.Partition, next, "")
				}
			}
		}()
	}

	drained := make(chan struct{})
	go func() {
		deliveries.Wait()
		close(drained)
	}()
	select {
	case <-drained:
	case <-time.After(cfg.DrainTimeout):
		h.s.logger.Info("Messages still unacknowledged after drain timeout; they will be delivered again",
			h.fields.Add(watermill.LogFields{"kafka_partition": claim.Partition()}))
	}
	cancelMsgs()
	<-drained
	return nil
}

// send hands msg to the subscriber's channel with a context of its own, returning the
// function that ends that context; ok is false when the session or subscription ended
// first.
func (h *partitionHandler) send(parent context.Context, msg *message.Message, ended <-chan struct{}) (context.CancelFunc, bool) {
	ctx, cancel := context.WithCancel(parent)
	msg.SetContext(ctx)
	select {
	case h.out <- msg:
		return cancel, true
	case <-ended:
		cancel()
		return nil, false
	}
}

// awaitAck waits until msg is acknowledged (true), redelivering it after a negative
// acknowledgement; false when the session ended before a redelivery or the drain
// timed out.
func (h *partitionHandler) awaitAck(parent context.Context, ended <-chan struct{}, msg *message.Message, cancel context.CancelFunc) bool {
	for {
		select {
		case <-msg.Acked():
			cancel()
			return true
		case <-msg.Nacked():
			cancel()
			select {
			case <-ended:
				return false
			case <-time.After(h.s.cfg.NackResendSleep):
			}
			msg = msg.Copy()
			var ok bool
			if cancel, ok = h.send(parent, msg, ended); !ok {
				return false
			}
		case <-parent.Done():
			cancel()
			return false
		}
	}
}

func unmarshalKafkaMessage(km *sarama.ConsumerMessage) *message.Message {
	msg, err := wmkafka.DefaultMarshaler{}.Unmarshal(km)
	if err != nil || msg.UUID == "" {
		// Not written by Watermill: deliver it anyway; the consumer dead-letters it
		// when it is not a claim.
		msg = message.NewMessage(fmt.Sprintf("%s/%d/%d", km.Topic, km.Partition, km.Offset), km.Value)
	}
	return msg
}

// offsetTracker finds how far a partition's offset may be committed: up to the first
// message not yet acknowledged.
type offsetTracker struct {
	mu      sync.Mutex
	pending []int64 // offsets delivered, in order
	acked   map[int64]bool
}

func (t *offsetTracker) add(offset int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.pending = append(t.pending, offset)
}

// done records offset as acknowledged and returns the next offset to commit when the
// acknowledged prefix grew.
func (t *offsetTracker) done(offset int64) (int64, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.acked == nil {
		t.acked = map[int64]bool{}
	}
	t.acked[offset] = true
	moved := false
	var next int64
	for len(t.pending) > 0 && t.acked[t.pending[0]] {
		delete(t.acked, t.pending[0])
		next = t.pending[0] + 1
		t.pending = t.pending[1:]
		moved = true
	}
	return next, moved
}
