package queue

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"

	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/message/router/middleware"
	"go.opentelemetry.io/otel/trace"

	"github.com/dealspot/dealspot/adapters/claimwire"
	"github.com/dealspot/dealspot/internal/domain"
)

var (
	// errUndecodable marks a message whose body is not a claim: retrying cannot help.
	errUndecodable = errors.New("undecodable order message")
	// errGaveUp marks a claim that failed on its own MaxRetries times.
	errGaveUp = errors.New("claim keeps failing")
)

// deliveryState follows one delivered message through its attempts. It lives in the
// message context, set by the attempts middleware (outside Retry), so the handler, the
// retry policy and the dead-letter publisher all see it.
type deliveryState struct {
	attempts      int
	batchFailures int // failed attempts in a batch of more than one claim
	aloneFailures int // failed attempts on its own
	lastErr       error
	// begin is called as the first attempt starts (see attempts).
	begin func()
}

type deliveryStateKey struct{}

func stateOf(msg *message.Message) *deliveryState {
	st, _ := msg.Context().Value(deliveryStateKey{}).(*deliveryState)
	return st
}

// consumer is the message handler of one Consume run.
type consumer struct {
	cfg     Config
	batcher *batcher
	// stopCtx is cancelled when the run begins to stop: back-off waits end early and no
	// further attempt starts.
	stopCtx context.Context
}

// attempts attaches a fresh deliveryState to each delivery and, once its first attempt
// has begun, makes its context end when the run stops.
//
// A delivery the router took gets that first attempt even when the run began to stop
// meanwhile (the batcher runs until the router has closed). The router handles the
// messages of a partition on goroutines of their own, so a later message may be handled
// before an earlier one has started; refusing the earlier one for the stop would leave a
// gap in the partition's acknowledged prefix, and Kafka, which commits only up to the
// first message not acknowledged, would deliver the later ones, handled already, again.
// After the first attempt the stop ends back-off waits, and shouldRetry refuses more.
func (c *consumer) attempts(h message.HandlerFunc) message.HandlerFunc {
	return func(msg *message.Message) ([]*message.Message, error) {
		var (
			cancel     context.CancelFunc
			unregister func() bool
		)
		st := &deliveryState{begin: func() { unregister = context.AfterFunc(c.stopCtx, cancel) }}
		orig := context.WithValue(msg.Context(), deliveryStateKey{}, st)
		ctx, cancel := context.WithCancel(orig)
		defer cancel()
		defer func() {
			if unregister != nil {
				unregister()
			}
		}()
		msg.SetContext(ctx)
		events, err := h(msg)
		// The dead-letter publisher runs after this returns and needs a live context.
		msg.SetContext(orig)
		return events, err
	}
}

// shouldRetry is the Retry middleware's policy: everything is retried except a message
// that cannot be decoded, a claim that has used up its attempts, and anything once the
// run is stopping (the message is then left unacknowledged and delivered again later).
func (c *consumer) shouldRetry(p middleware.RetryParams) bool {
	if c.stopCtx.Err() != nil {
		return false
	}
	return !errors.Is(p.Err, errUndecodable) && !errors.Is(p.Err, errGaveUp) && !errors.Is(p.Err, errStopping)
}

// poisonous tells the PoisonQueue middleware which failures go to the dead letter.
func poisonous(err error) bool {
	return errors.Is(err, errUndecodable) || errors.Is(err, errGaveUp)
}

// handleMessage is one attempt at one message: the claim joins a batch of its lane, or
// goes alone once its batches failed MaxRetries times or it already failed alone.
func (c *consumer) handleMessage(msg *message.Message) error {
	claim, err := claimwire.DecodeClaim(msg.Payload)
	if err != nil {
		return fmt.Errorf("%w %s: %w", errUndecodable, msg.UUID, err)
	}
	st := stateOf(msg)
	if st == nil { // not reached through the attempts middleware
		st = &deliveryState{}
	}
	st.attempts++
	if st.attempts == 1 && st.begin != nil {
		st.begin()
	}
	lane := st.attempts
	if st.batchFailures >= c.cfg.MaxRetries || st.aloneFailures > 0 {
		lane = 0
	}
	var sc trace.SpanContext
	if c.cfg.Tracer != nil {
		sc = claimwire.ExtractTrace(msg.Metadata)
	}
	res := c.batcher.submit(claim, lane, sc)
	if res.err == nil {
		return nil
	}
	if errors.Is(res.err, errStopping) {
		return res.err
	}
	st.lastErr = res.err
	if res.size <= 1 {
		st.aloneFailures++
	} else {
		st.batchFailures++
	}
	if st.aloneFailures >= c.cfg.MaxRetries {
		return fmt.Errorf("%w: order %d failed %d times: %w", errGaveUp, claim.OrderID, st.attempts, res.err)
	}
	return res.err
}

// deadLetterPublisher is the PoisonQueue middleware's publisher: it writes the message
// to the dead-letter topic and then tells the application, which marks the order
// FAILED and returns its stock. The message is acknowledged after both.
type deadLetterPublisher struct {
	message.Publisher
	ctx  context.Context
	dead func(ctx context.Context, c domain.Claim, cause error)
	log  *slog.Logger
	// count, if set, counts the messages written to the dead-letter topic.
	count *deadLetterCount
}

func (d *deadLetterPublisher) Publish(topic string, msgs ...*message.Message) error {
	if err := d.Publisher.Publish(topic, msgs...); err != nil {
		return err
	}
	if d.count != nil {
		d.count.Add(uint64(len(msgs)))
	}
	for _, msg := range msgs {
		reason := msg.Metadata.Get(middleware.ReasonForPoisonedKey)
		claim, err := claimwire.DecodeClaim(msg.Payload)
		if err != nil {
			d.log.Error("undecodable order message moved to the dead letter",
				"message_uuid", msg.UUID, "topic", topic, "error", err)
			continue
		}
		var cause error
		if st := stateOf(msg); st != nil && st.lastErr != nil {
			cause = st.lastErr
		} else {
			cause = errors.New(reason)
		}
		d.log.Error("order claim moved to the dead letter",
			"order_id", strconv.FormatInt(claim.OrderID, 10), "voucher_id", claim.VoucherID,
			"topic", topic, "error", cause)
		d.dead(d.ctx, claim, cause)
	}
	return nil
}

// Close leaves the underlying publisher to the queue.
func (d *deadLetterPublisher) Close() error { return nil }
