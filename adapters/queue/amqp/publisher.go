package amqp

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	amqp091 "github.com/rabbitmq/amqp091-go"
)

// resendWindow bounds how long a publish keeps sending again a message whose
// confirmation was lost; after it the publish fails with the outcome unknown.
const resendWindow = 30 * time.Second

// ErrNotSent marks a publish whose message is known not to be queued: the broker
// refused it, or it was never sent (no connection, the channel or the publisher closed
// before the send). Any other publish error leaves the outcome unknown: the message may
// be queued.
var ErrNotSent = errors.New("message not sent")

// notSent marks err as a publish known not to have queued its message.
func notSent(err error) error {
	if err == nil || errors.Is(err, ErrNotSent) {
		return err
	}
	return fmt.Errorf("%w (%w)", err, ErrNotSent)
}

// Publisher publishes each message persistent to the durable queue named by the
// topic (through the default exchange) and returns once the broker confirmed it. It
// spreads publishes over a few confirm-mode channels (each safe for concurrent use)
// and replaces a channel once it is closed, on a new connection if the old one was
// lost, so publishing resumes by itself after the broker comes back. While the broker
// is unreachable a publish fails at once, the message not being queued; but a message
// whose confirmation was lost with its channel may be queued or not, so it is sent
// again until confirmed, for up to resendWindow or until its context ends. Errors
// of publishes known not to have queued their message wrap ErrNotSent; the others
// leave the outcome unknown.
type Publisher struct {
	conn      *connector
	queueArgs amqp091.Table

	slots []channelSlot
	next  atomic.Uint64

	mu     sync.Mutex
	closed bool
}

// channelSlot holds one publishing channel; nil until first used.
type channelSlot struct {
	mu sync.Mutex
	ch *amqp091.Channel
}

// publishChannels is how many channels a publisher spreads its publishes over.
const publishChannels = 8

// NewPublisher returns a publisher to the broker at url, on a connection of its own
// named connName, declaring queues with queueArgs (nil in production).
func NewPublisher(url, connName string, queueArgs amqp091.Table, logger watermill.LoggerAdapter) *Publisher {
	return &Publisher{
		conn:      newConnector(url, connName, logger),
		queueArgs: queueArgs,
		slots:     make([]channelSlot, publishChannels),
	}
}

// Publish publishes msgs in order to topic's queue; it stops at the first failure.
// Each message's context bounds how long its publish and confirmation may take.
func (p *Publisher) Publish(topic string, msgs ...*message.Message) error {
	for _, msg := range msgs {
		if err := p.publish(topic, msg); err != nil {
			return err
		}
	}
	return nil
}

func (p *Publisher) publish(queue string, msg *message.Message) error {
	ctx := msg.Context()
	body := marshal(msg)
	var (
		unsure   bool             // sent on a channel that closed before confirming it
		deadline <-chan time.Time // end of the resend window, once unsure
		delay    = redialMin
		retried  bool
	)
	for {
		if p.isClosed() {
			return notSent(errClosed)
		}
		confirmed, err := p.publishOnce(ctx, queue, body)
		switch {
		case confirmed:
			return nil
		case errors.Is(err, errUnconfirmed):
			if !unsure {
				unsure = true
				deadline = time.After(resendWindow)
			}
		case !unsure && errors.Is(err, amqp091.ErrClosed) && !retried:
			// The channel went away before the message was sent: try once more at once.
			retried = true
			continue
		case !unsure:
			// Never sent, or refused by the broker: the message is not queued.
			return notSent(fmt.Errorf("publish message %s: %w", msg.UUID, err))
		}
		// The broker may hold the message or not; send it again once it is reachable.
		// The consumer is idempotent, so a copy too many is harmless, a loss is not.
		select {
		case <-time.After(delay):
		case <-deadline:
			return fmt.Errorf("publish message %s: unconfirmed, broker unreachable for %v: %w", msg.UUID, resendWindow, err)
		case <-ctx.Done():
			return fmt.Errorf("publish message %s: unconfirmed: %w", msg.UUID, ctx.Err())
		}
		delay = min(2*delay, redialMax)
	}
}

// errUnconfirmed marks a message sent on a channel that closed before the broker
// confirmed it: the broker may or may not hold it.
var errUnconfirmed = errors.New("channel closed before the broker confirmed the message")

// publishOnce sends body and waits for the broker's confirmation.
func (p *Publisher) publishOnce(ctx context.Context, queue string, body amqp091.Publishing) (confirmed bool, err error) {
	ch, err := p.channel(ctx)
	if err != nil {
		return false, err
	}
	dc, err := ch.PublishWithDeferredConfirmWithContext(ctx, "", queue, false, false, body)
	if err != nil {
		return false, err
	}
	acked, err := dc.WaitContext(ctx)
	switch {
	case err != nil:
		return false, fmt.Errorf("%w: %w", errUnconfirmed, err)
	case acked:
		return true, nil
	case ch.IsClosed():
		return false, errUnconfirmed
	default:
		return false, errors.New("broker refused the message (nack)")
	}
}

// channel returns an open confirm-mode channel, replacing a closed one.
func (p *Publisher) channel(ctx context.Context) (*amqp091.Channel, error) {
	slot := &p.slots[p.next.Add(1)%uint64(len(p.slots))]
	slot.mu.Lock()
	ch := slot.ch
	slot.mu.Unlock()
	if ch != nil && !ch.IsClosed() {
		return ch, nil
	}

	conn, err := p.conn.connection(ctx)
	if err != nil {
		return nil, err
	}
	fresh, err := conn.Channel()
	if err != nil {
		return nil, fmt.Errorf("open amqp channel: %w", err)
	}
	if err := fresh.Confirm(false); err != nil {
		_ = fresh.Close()
		return nil, fmt.Errorf("enable publisher confirms: %w", err)
	}

	slot.mu.Lock()
	defer slot.mu.Unlock()
	if p.isClosed() {
		_ = fresh.Close()
		return nil, errClosed
	}
	if slot.ch != nil && !slot.ch.IsClosed() {
		// Another publish replaced it meanwhile.
		_ = fresh.Close()
		return slot.ch, nil
	}
	slot.ch = fresh
	return fresh, nil
}

// declare declares the queues of topics, so that messages published before anyone
// subscribes are kept (the default exchange drops a message for a missing queue, and
// the broker still confirms it).
func (p *Publisher) Declare(ctx context.Context, topics ...string) error {
	conn, err := p.conn.connection(ctx)
	if err != nil {
		return err
	}
	ch, err := conn.Channel()
	if err != nil {
		return fmt.Errorf("open amqp channel: %w", err)
	}
	defer func() { _ = ch.Close() }()
	for _, topic := range topics {
		if err := declareQueue(ch, topic, p.queueArgs); err != nil {
			return err
		}
	}
	return nil
}

func (p *Publisher) isClosed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.closed
}

// Close closes the channels and the connection. Publishes under way fail. It is safe
// to call more than once, whatever state the connection is in.
func (p *Publisher) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	p.mu.Unlock()
	for i := range p.slots {
		slot := &p.slots[i]
		slot.mu.Lock()
		if slot.ch != nil && !slot.ch.IsClosed() {
			_ = slot.ch.Close()
		}
		slot.ch = nil
		slot.mu.Unlock()
	}
	return p.conn.close()
}

// marshal is watermill-amqp's wire format (DefaultMarshaler), so messages queued
// by earlier versions stay readable: the payload as body, persistent, the metadata as
// headers plus the message UUID under uuidHeader.
func marshal(msg *message.Message) amqp091.Publishing {
	headers := make(amqp091.Table, len(msg.Metadata)+1)
	for k, v := range msg.Metadata {
		headers[k] = v
	}
	headers[uuidHeader] = msg.UUID
	return amqp091.Publishing{Body: msg.Payload, Headers: headers, DeliveryMode: amqp091.Persistent}
}

// uuidHeader carries the Watermill message UUID.
const uuidHeader = "_watermill_message_uuid"

// unmarshal reads what marshal wrote. It never fails: a header that is not a
// string (from another producer) is kept in its printed form, and whether the body is
// a claim is for the handler to decide.
func unmarshal(d amqp091.Delivery) *message.Message {
	uuid, _ := d.Headers[uuidHeader].(string)
	if uuid == "" {
		uuid = watermill.NewUUID()
	}
	msg := message.NewMessage(uuid, d.Body)
	for k, v := range d.Headers {
		if k == uuidHeader {
			continue
		}
		if s, ok := v.(string); ok {
			msg.Metadata[k] = s
		} else {
			msg.Metadata[k] = fmt.Sprint(v)
		}
	}
	return msg
}

// QueueDepth returns the messages ready for delivery in queue (those delivered and not
// yet acknowledged are not counted), by a passive declare on a channel of its own.
func (p *Publisher) QueueDepth(ctx context.Context, queue string) (int, error) {
	conn, err := p.conn.connection(ctx)
	if err != nil {
		return 0, err
	}
	ch, err := conn.Channel()
	if err != nil {
		return 0, fmt.Errorf("open amqp channel: %w", err)
	}
	defer func() { _ = ch.Close() }()
	q, err := ch.QueueDeclarePassive(queue, true, false, false, false, p.queueArgs)
	if err != nil {
		return 0, fmt.Errorf("inspect queue %s: %w", queue, err)
	}
	return q.Messages, nil
}
