// Package redisstream is the order queue's Watermill subscriber for Redis Streams
// consumer groups, and the publisher it pairs with (watermill-redisstream's, whose
// message fields the subscriber reads, as does the gate script that XADDs claims).
package redisstream

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	wmredis "github.com/ThreeDotsLabs/watermill-redisstream/pkg/redisstream"
	"github.com/ThreeDotsLabs/watermill/message"
	goredis "github.com/redis/go-redis/v9"
	"github.com/vmihailenco/msgpack"

	"github.com/dealspot/dealspot/adapters/queue/internal/subscriptions"
)

// SubscriberConfig configures a Subscriber.
type SubscriberConfig struct {
	// Client is used for every command; the subscriber does not close it.
	Client goredis.UniversalClient
	// Group is the consumer group, created on each stream at Subscribe if missing
	// (from the stream's first entry, so nothing added before is skipped).
	Group string
	// Consumer names this member of the group (a random name if empty).
	Consumer string
	// Window is how many messages of one stream may be delivered and not yet
	// acknowledged at a time.
	Window int
	// Block is how long one XREADGROUP waits for new entries (250ms if zero).
	Block time.Duration
	// ClaimIdle is how long an entry may stay unacknowledged and unrefreshed with
	// another consumer before this one takes it over.
	ClaimIdle time.Duration
	// ClaimInterval is how often idle entries are looked for (each time all of them, in
	// one pass) and this consumer's own in-flight entries are refreshed.
	ClaimInterval time.Duration
	// NackResendSleep delays the redelivery of a nacked message (100ms if zero).
	NackResendSleep time.Duration
	// DrainTimeout bounds how long a stopping subscription waits for the messages it
	// delivered to be acknowledged.
	DrainTimeout time.Duration
	// DeleteAcked removes entries from the stream once acknowledged (the group is the
	// stream's only reader), so order streams do not grow without bound.
	DeleteAcked bool
}

// check applies the defaults of what only the subscriber knows about and refuses a
// configuration that leaves the queue's own settings unset.
func (c *SubscriberConfig) check() error {
	switch {
	case c.Client == nil:
		return errors.New("stream subscriber needs a redis client")
	case c.Group == "":
		return errors.New("stream subscriber needs a consumer group")
	case c.Window <= 0 || c.ClaimIdle <= 0 || c.ClaimInterval <= 0 || c.DrainTimeout <= 0:
		return errors.New("stream subscriber needs a positive Window, ClaimIdle, ClaimInterval and DrainTimeout")
	}
	if c.Consumer == "" {
		c.Consumer = watermill.NewShortUUID()
	}
	if c.Block <= 0 {
		c.Block = 250 * time.Millisecond
	}
	if c.NackResendSleep <= 0 {
		c.NackResendSleep = 100 * time.Millisecond
	}
	return nil
}

// Subscriber is a Watermill subscriber for Redis Streams consumer groups that,
// unlike watermill-redisstream's (one XREADGROUP COUNT 1 and one message in flight per
// consumer), reads up to Window entries per call and keeps them all in flight, so the
// batches downstream can fill from a single hot stream. Acknowledgements may come in
// any order; they are sent to Redis in bulk. Entries left unacknowledged by a consumer
// that died are taken over after ClaimIdle (XAUTOCLAIM); entries still being worked on
// are kept fresh (XCLAIM … JUSTID by their owner) so they are not taken over.
type Subscriber struct {
	cfg    SubscriberConfig
	logger watermill.LoggerAdapter

	subs *subscriptions.Set
}

// NewSubscriber returns a subscriber; Client, Group, Window, ClaimIdle, ClaimInterval
// and DrainTimeout must be set.
func NewSubscriber(cfg SubscriberConfig, logger watermill.LoggerAdapter) (*Subscriber, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if logger == nil {
		logger = watermill.NopLogger{}
	}
	return &Subscriber{cfg: cfg, logger: logger, subs: subscriptions.New()}, nil
}

// CreateGroup creates group on stream, reading from the stream's first entry; an
// existing group is left as it is.
func CreateGroup(ctx context.Context, c goredis.UniversalClient, stream, group string) error {
	err := c.XGroupCreateMkStream(ctx, stream, group, "0").Err()
	if err != nil && !strings.HasPrefix(err.Error(), "BUSYGROUP") {
		return fmt.Errorf("create consumer group %s on %s: %w", group, stream, err)
	}
	return nil
}

// SubscribeInitialize creates the consumer group on stream.
func (s *Subscriber) SubscribeInitialize(stream string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return CreateGroup(ctx, s.cfg.Client, stream, s.cfg.Group)
}

// Subscribe reads stream until ctx is done or the subscriber is closed; then the
// channel closes after the messages already delivered were acknowledged or DrainTimeout
// passed. Messages delivered but not acknowledged stay pending in the group.
func (s *Subscriber) Subscribe(ctx context.Context, stream string) (<-chan *message.Message, error) {
	if !s.subs.Begin() {
		return nil, errors.New("stream subscriber closed")
	}

	initCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	err := CreateGroup(initCtx, s.cfg.Client, stream, s.cfg.Group)
	cancel()
	if err != nil {
		s.subs.Done()
		return nil, err
	}
	msgCtx, cancelMsgs := context.WithCancel(context.WithoutCancel(ctx))
	sub := &streamSubscription{
		s:          s,
		cfg:        s.cfg,
		stream:     stream,
		out:        make(chan *message.Message),
		stop:       make(chan struct{}),
		slots:      make(chan struct{}, s.cfg.Window),
		inflight:   map[string]struct{}{},
		acks:       make(chan string, s.cfg.Window),
		msgCtx:     msgCtx,
		cancelMsgs: cancelMsgs,
		logFields: watermill.LogFields{
			"provider": "redis", "stream": stream, "consumer_group": s.cfg.Group, "consumer": s.cfg.Consumer,
		},
	}
	s.subs.OnStop(ctx, func() { close(sub.stop) })
	go func() {
		defer s.subs.Done()
		sub.run()
	}()
	return sub.out, nil
}

// Close stops every subscription and waits until their channels are closed. The Redis
// client stays open.
func (s *Subscriber) Close() error {
	s.subs.Close()
	return nil
}

// streamSubscription is one Subscribe call: one stream.
type streamSubscription struct {
	s      *Subscriber
	cfg    SubscriberConfig
	stream string
	out    chan *message.Message
	stop   chan struct{}

	slots chan struct{} // one per message in flight

	mu       sync.Mutex
	inflight map[string]struct{}

	deliveries sync.WaitGroup
	acks       chan string
	msgCtx     context.Context // parent of message contexts; cancelled when the drain ends
	cancelMsgs context.CancelFunc
	logFields  watermill.LogFields
}

func (sub *streamSubscription) stopped() bool {
	select {
	case <-sub.stop:
		return true
	default:
		return false
	}
}

func (sub *streamSubscription) run() {
	ackerDone := make(chan struct{})
	go func() {
		defer close(ackerDone)
		sub.acker()
	}()
	claimerDone := make(chan struct{})
	go func() {
		defer close(claimerDone)
		sub.claimer()
	}()

	sub.read()
	<-claimerDone

	// Drain: the messages already delivered may still be acknowledged.
	drained := make(chan struct{})
	go func() {
		sub.deliveries.Wait()
		close(drained)
	}()
	select {
	case <-drained:
	case <-time.After(sub.cfg.DrainTimeout):
		sub.s.logger.Info("Messages still unacknowledged after drain timeout; they stay pending", sub.logFields)
	}
	sub.cancelMsgs()
	<-drained
	close(sub.acks)
	<-ackerDone
	sub.forgetConsumerIfIdle()
	close(sub.out)
}

// waitFree waits until a message slot is free; false when the subscription stops.
// Slots are taken per entry only once entries arrived, so no slot is held during a
// blocking read.
func (sub *streamSubscription) waitFree() bool {
	select {
	case sub.slots <- struct{}{}:
		<-sub.slots
		return true
	case <-sub.stop:
		return false
	}
}

// free is how many more messages may be in flight now (at least 1).
func (sub *streamSubscription) free() int {
	return max(1, cap(sub.slots)-len(sub.slots))
}

// read delivers first this consumer's own pending entries (left by an earlier
// subscription under the same consumer name), then new entries.
func (sub *streamSubscription) read() {
	ctx := context.Background()
	last := "0"
	for sub.waitFree() {
		res, err := sub.cfg.Client.XReadGroup(ctx, &goredis.XReadGroupArgs{
			Group: sub.cfg.Group, Consumer: sub.cfg.Consumer,
			Streams: []string{sub.stream, last}, Count: int64(sub.free()), Block: -1,
		}).Result()
		if err != nil && !errors.Is(err, goredis.Nil) {
			sub.readFailed(err)
			continue
		}
		var entries []goredis.XMessage
		if len(res) > 0 {
			entries = res[0].Messages
		}
		if len(entries) == 0 {
			break
		}
		last = entries[len(entries)-1].ID
		sub.start(entries)
	}
	for sub.waitFree() {
		res, err := sub.cfg.Client.XReadGroup(ctx, &goredis.XReadGroupArgs{
			Group: sub.cfg.Group, Consumer: sub.cfg.Consumer,
			Streams: []string{sub.stream, ">"}, Count: int64(sub.free()), Block: sub.cfg.Block,
		}).Result()
		if err != nil {
			if !errors.Is(err, goredis.Nil) {
				sub.readFailed(err)
			}
			continue
		}
		if len(res) > 0 {
			sub.start(res[0].Messages)
		}
	}
}

func (sub *streamSubscription) readFailed(err error) {
	sub.s.logger.Error("XREADGROUP failed", err, sub.logFields)
	if strings.HasPrefix(err.Error(), "NOGROUP") {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		if err := CreateGroup(ctx, sub.cfg.Client, sub.stream, sub.cfg.Group); err != nil {
			sub.s.logger.Error("Recreating consumer group failed", err, sub.logFields)
		}
		cancel()
	}
	select {
	case <-sub.stop:
	case <-time.After(500 * time.Millisecond):
	}
}

// start delivers entries, each once a slot is free. Entries already in flight here
// are skipped; entries not started because the subscription stopped stay pending.
func (sub *streamSubscription) start(entries []goredis.XMessage) {
	for _, e := range entries {
		sub.mu.Lock()
		_, busy := sub.inflight[e.ID]
		if !busy {
			sub.inflight[e.ID] = struct{}{}
		}
		sub.mu.Unlock()
		if busy {
			continue
		}
		select {
		case sub.slots <- struct{}{}:
		case <-sub.stop:
			sub.mu.Lock()
			delete(sub.inflight, e.ID)
			sub.mu.Unlock()
			return
		}
		sub.deliveries.Add(1)
		if e.Values == nil {
			// The entry was deleted while pending: nothing to deliver.
			go func() {
				defer sub.finish(e.ID)
				sub.acks <- e.ID
			}()
			continue
		}
		go sub.deliver(e)
	}
}

func (sub *streamSubscription) finish(id string) {
	sub.mu.Lock()
	delete(sub.inflight, id)
	sub.mu.Unlock()
	<-sub.slots
	sub.deliveries.Done()
}

func (sub *streamSubscription) deliver(e goredis.XMessage) {
	defer sub.finish(e.ID)
	msg := unmarshalStreamEntry(e)
	fields := sub.logFields.Add(watermill.LogFields{"xid": e.ID, "message_uuid": msg.UUID})
	for {
		ctx, cancel := context.WithCancel(sub.msgCtx)
		msg.SetContext(ctx)
		select {
		case sub.out <- msg:
		case <-sub.stop:
			cancel()
			return
		}
		select {
		case <-msg.Acked():
			cancel()
			sub.acks <- e.ID
			return
		case <-msg.Nacked():
			cancel()
			sub.s.logger.Trace("Message nacked", fields)
			select {
			case <-sub.stop:
				return
			case <-time.After(sub.cfg.NackResendSleep):
			}
			msg = msg.Copy()
		case <-sub.msgCtx.Done():
			cancel()
			return
		}
	}
}

// acker acknowledges in bulk whatever was acknowledged since its last call.
func (sub *streamSubscription) acker() {
	const maxIDs = 512
	ids := make([]string, 0, maxIDs)
	for id := range sub.acks {
		ids = append(ids[:0], id)
	more:
		for len(ids) < maxIDs {
			select {
			case id, ok := <-sub.acks:
				if !ok {
					break more
				}
				ids = append(ids, id)
			default:
				break more
			}
		}
		sub.ack(ids)
	}
}

func (sub *streamSubscription) ack(ids []string) {
	var err error
	for attempt := range 5 {
		if attempt > 0 {
			time.Sleep(time.Duration(attempt) * 100 * time.Millisecond)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err = sub.cfg.Client.Pipelined(ctx, func(p goredis.Pipeliner) error {
			p.XAck(ctx, sub.stream, sub.cfg.Group, ids...)
			if sub.cfg.DeleteAcked {
				p.XDel(ctx, sub.stream, ids...)
			}
			return nil
		})
		cancel()
		if err == nil {
			return
		}
	}
	sub.s.logger.Error("XACK failed; the messages will be delivered again", err,
		sub.logFields.Add(watermill.LogFields{"count": len(ids)}))
}

// claimer keeps this consumer's in-flight entries fresh and takes over entries that
// other consumers left idle for longer than ClaimIdle. Refreshing runs on its own, so a
// take-over waiting for free slots never delays it.
func (sub *streamSubscription) claimer() {
	var wg sync.WaitGroup
	every := func(f func()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tick := time.NewTicker(sub.cfg.ClaimInterval)
			defer tick.Stop()
			for {
				f()
				select {
				case <-sub.stop:
					return
				case <-tick.C:
				}
			}
		}()
	}
	every(sub.refresh)
	every(sub.takeOver)
	wg.Wait()
}

func (sub *streamSubscription) refresh() {
	sub.mu.Lock()
	ids := make([]string, 0, len(sub.inflight))
	for id := range sub.inflight {
		ids = append(ids, id)
	}
	sub.mu.Unlock()
	for len(ids) > 0 {
		chunk := ids[:min(len(ids), 500)]
		ids = ids[len(chunk):]
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err := sub.cfg.Client.XClaimJustID(ctx, &goredis.XClaimArgs{
			Stream: sub.stream, Group: sub.cfg.Group, Consumer: sub.cfg.Consumer, Messages: chunk,
		}).Err()
		cancel()
		if err != nil && !errors.Is(err, goredis.Nil) {
			sub.s.logger.Error("XCLAIM refresh failed", err, sub.logFields)
			return
		}
	}
}

// takeOver makes one pass over the group's pending entries with XAUTOCLAIM's cursor,
// taking over every entry idle for longer than ClaimIdle, as many as there are: it
// waits for free slots rather than leaving the rest to the next tick.
func (sub *streamSubscription) takeOver() {
	start := "0-0"
	for !sub.stopped() && sub.waitFree() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		entries, next, err := sub.cfg.Client.XAutoClaim(ctx, &goredis.XAutoClaimArgs{
			Stream: sub.stream, Group: sub.cfg.Group, Consumer: sub.cfg.Consumer,
			MinIdle: sub.cfg.ClaimIdle, Start: start, Count: int64(sub.free()),
		}).Result()
		cancel()
		if err != nil {
			if !errors.Is(err, goredis.Nil) {
				sub.s.logger.Error("XAUTOCLAIM failed", err, sub.logFields)
			}
			return
		}
		if len(entries) > 0 {
			sub.s.logger.Info("Took over idle messages", sub.logFields.Add(watermill.LogFields{"count": len(entries)}))
		}
		sub.start(entries)
		if next == "0-0" || next == "" {
			return
		}
		start = next
	}
}

// forgetConsumerIfIdle removes this consumer from the group when it holds nothing, so
// consumer names of finished processes do not pile up.
func (sub *streamSubscription) forgetConsumerIfIdle() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	pending, err := sub.cfg.Client.XPendingExt(ctx, &goredis.XPendingExtArgs{
		Stream: sub.stream, Group: sub.cfg.Group, Start: "-", End: "+", Count: 1, Consumer: sub.cfg.Consumer,
	}).Result()
	if err != nil || len(pending) > 0 {
		return
	}
	_ = sub.cfg.Client.XGroupDelConsumer(ctx, sub.stream, sub.cfg.Group, sub.cfg.Consumer).Err()
}

// unmarshalStreamEntry reads the fields watermill-redisstream writes
// (_watermill_message_uuid, metadata as msgpack or "", payload). It never fails: an
// entry that does not fit gets the entry id as UUID and whatever payload it has, and the
// consumer dead-letters it when the payload is not a claim.
func unmarshalStreamEntry(e goredis.XMessage) *message.Message {
	uuid, _ := e.Values[wmredis.UUIDHeaderKey].(string)
	if uuid == "" {
		uuid = e.ID
	}
	payload, _ := e.Values["payload"].(string)
	msg := message.NewMessage(uuid, []byte(payload))
	if md, _ := e.Values["metadata"].(string); md != "" {
		metadata := make(message.Metadata)
		if err := msgpack.Unmarshal([]byte(md), &metadata); err == nil {
			msg.Metadata = metadata
		}
	}
	return msg
}
