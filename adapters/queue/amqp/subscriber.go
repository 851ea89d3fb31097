package amqp

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	amqp091 "github.com/rabbitmq/amqp091-go"
)

// Subscriber reads the durable queue named by the topic. Each Subscribe consumes on
// a channel of its own and hands out one delivery at a time: the next only after the
// previous one was acknowledged (Ack) or negatively acknowledged (Nack, requeued). When
// the channel or the connection is lost, the subscription opens a new channel, on a
// new connection if needed, and goes on; the broker delivers again whatever was not
// acknowledged on the lost channel. The output channel closes only when the
// subscriber is closed or the Subscribe context ends.
type Subscriber struct {
	conn      *connector
	prefetch  int
	queueArgs amqp091.Table
	logger    watermill.LoggerAdapter

	closing chan struct{}
	mu      sync.Mutex
	closed  bool
	subs    sync.WaitGroup
}

// prefetch is how many deliveries the broker may push to one consumer channel ahead of
// its acknowledgements.
const prefetch = 4

// NewSubscriber returns a subscriber to the broker at url, on a connection of its own
// named connName, declaring queues with queueArgs (nil in production).
func NewSubscriber(url, connName string, queueArgs amqp091.Table, logger watermill.LoggerAdapter) *Subscriber {
	return &Subscriber{
		conn:      newConnector(url, connName, logger),
		prefetch:  prefetch,
		queueArgs: queueArgs,
		logger:    logger,
		closing:   make(chan struct{}),
	}
}

// Subscribe starts consuming topic's queue; it does not wait for the broker.
func (s *Subscriber) Subscribe(ctx context.Context, topic string) (<-chan *message.Message, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errClosed
	}
	out := make(chan *message.Message)
	// One context for everything the subscription waits on: it ends with ctx or Close.
	ctx, cancel := context.WithCancel(ctx)
	s.subs.Add(2)
	go func() {
		defer s.subs.Done()
		select {
		case <-s.closing:
			cancel()
		case <-ctx.Done():
		}
	}()
	go func() {
		defer s.subs.Done()
		defer close(out)
		defer cancel()
		s.run(ctx, topic, out)
	}()
	return out, nil
}

// SubscribeInitialize declares topic's queue.
func (s *Subscriber) SubscribeInitialize(topic string) error {
	ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
	defer cancel()
	conn, err := s.conn.connection(ctx)
	if err != nil {
		return err
	}
	ch, err := conn.Channel()
	if err != nil {
		return fmt.Errorf("open amqp channel: %w", err)
	}
	defer func() { _ = ch.Close() }()
	return declareQueue(ch, topic, s.queueArgs)
}

// run consumes until ctx ends, starting over after each loss.
func (s *Subscriber) run(ctx context.Context, queue string, out chan<- *message.Message) {
	fields := watermill.LogFields{"queue": queue}
	delay := redialMin
	for {
		consumed, err := s.consume(ctx, queue, out)
		if ctx.Err() != nil {
			return
		}
		if consumed {
			delay = redialMin
		}
		s.logger.Debug("AMQP consumer interrupted; starting over", fields.Add(watermill.LogFields{"error": err, "retry_in": delay.String()}))
		select {
		case <-time.After(delay):
		case <-ctx.Done():
			return
		}
		delay = min(2*delay, redialMax)
	}
}

// consume opens a channel, declares and consumes queue, and hands deliveries to out
// until the channel is lost (error) or ctx ends (nil). consumed reports whether
// consuming had started.
func (s *Subscriber) consume(ctx context.Context, queue string, out chan<- *message.Message) (consumed bool, err error) {
	conn, err := s.conn.connection(ctx)
	if err != nil {
		return false, err
	}
	ch, err := conn.Channel()
	if err != nil {
		return false, fmt.Errorf("open amqp channel: %w", err)
	}
	defer func() { _ = ch.Close() }()
	if err := ch.Qos(s.prefetch, 0, false); err != nil {
		return false, fmt.Errorf("set prefetch: %w", err)
	}
	if err := declareQueue(ch, queue, s.queueArgs); err != nil {
		return false, err
	}
	deliveries, err := ch.Consume(queue, "", false, false, false, false, nil)
	if err != nil {
		return false, fmt.Errorf("consume %s: %w", queue, err)
	}
	for {
		select {
		case d, ok := <-deliveries:
			if !ok {
				return true, errors.New("amqp channel closed")
			}
			if err := s.deliver(ctx, d, out); err != nil {
				return true, err
			}
		case <-ctx.Done():
			return true, nil
		}
	}
}

// deliver hands d to out and settles it with the broker as the handler settled it. A
// delivery not handed out before ctx ends, or not settled before the subscriber
// closes, is requeued. The Subscribe context alone does not end the wait for a
// handed-out message: the router cancels it as soon as it begins to stop, while the
// handlers still finish what they hold.
func (s *Subscriber) deliver(ctx context.Context, d amqp091.Delivery, out chan<- *message.Message) error {
	msg := unmarshal(d)
	msgCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	msg.SetContext(msgCtx)

	requeue := func() error {
		if err := d.Nack(false, true); err != nil {
			return fmt.Errorf("nack message %s: %w", msg.UUID, err)
		}
		return nil
	}
	select {
	case out <- msg:
	case <-ctx.Done():
		return requeue()
	}
	ack := func() error {
		if err := d.Ack(false); err != nil {
			// The channel is gone; the broker delivers the message again.
			return fmt.Errorf("ack message %s: %w", msg.UUID, err)
		}
		return nil
	}
	select {
	case <-msg.Acked():
		return ack()
	case <-msg.Nacked():
		return requeue()
	case <-s.closing:
		// An acknowledgement that came with the close still counts.
		select {
		case <-msg.Acked():
			return ack()
		default:
			return requeue()
		}
	}
}

// Close stops every subscription (requeueing what was handed out and not settled),
// waits for them and closes the connection. It is safe to call more than once.
func (s *Subscriber) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.closing)
	s.mu.Unlock()
	s.subs.Wait()
	return s.conn.close()
}
