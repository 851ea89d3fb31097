package redis

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"time"

	goredis "github.com/redis/go-redis/v9"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
)

// StatusBus carries order events to every node over Redis Pub/Sub. Each process keeps one
// subscription and hands events to its local subscribers by order id. Pub/Sub delivers
// at most once: events published while the subscription's connection is down are lost.
// go-redis re-establishes the connection by itself, and when the server confirms the
// subscription again every local subscriber is asked to re-read its order (an event with
// no status, see seckill.StatusBus).
type StatusBus struct {
	bc *Broadcast

	mu   sync.Mutex
	subs map[int64]map[chan domain.OrderEvent]struct{}
	stop func()
}

var _ seckill.StatusBus = (*StatusBus)(nil)

// NewStatusBus returns the bus on channel.
func NewStatusBus(client goredis.UniversalClient, channel string) *StatusBus {
	return &StatusBus{bc: NewBroadcast(client, channel), subs: map[int64]map[chan domain.OrderEvent]struct{}{}}
}

type orderEventWire struct {
	OrderID   string `json:"orderId"`
	UserID    string `json:"userId"`
	VoucherID string `json:"voucherId"`
	Status    string `json:"status"`
	Reason    string `json:"reason,omitempty"`
	At        int64  `json:"at"`
}

// eventsPerMessage bounds how many events one Pub/Sub message carries.
const eventsPerMessage = 256

// Publish implements seckill.StatusBus: the events go as JSON arrays of up to
// eventsPerMessage events, one PUBLISH per array and one round trip for all — an order
// writer's batch of hundreds of orders costs Redis one or two messages, not one each.
func (b *StatusBus) Publish(ctx context.Context, events ...domain.OrderEvent) (err error) {
	ctx, span := childSpan(ctx, "order.status publish", trace.SpanKindProducer)
	if span != nil {
		defer func() { endSpan(span, err) }()
		span.SetAttributes(attribute.String("messaging.system", "redis"), attribute.String("messaging.operation.type", "send"),
			attribute.Int("messaging.batch.message_count", len(events)))
		if len(events) == 1 {
			span.SetAttributes(attribute.Int64("dealspot.order_id", events[0].OrderID),
				attribute.String("dealspot.order_status", string(events[0].Status)))
		}
	}
	if len(events) == 0 {
		return nil
	}
	msgs := make([]string, 0, (len(events)+eventsPerMessage-1)/eventsPerMessage)
	wire := make([]orderEventWire, 0, min(len(events), eventsPerMessage))
	for start := 0; start < len(events); start += eventsPerMessage {
		wire = wire[:0]
		for _, e := range events[start:min(len(events), start+eventsPerMessage)] {
			wire = append(wire, orderEventWire{
				OrderID: strconv.FormatInt(e.OrderID, 10), UserID: strconv.FormatInt(e.UserID, 10),
				VoucherID: strconv.FormatInt(e.VoucherID, 10), Status: string(e.Status), Reason: e.Reason, At: e.At.UnixMilli(),
			})
		}
		msg, err := json.Marshal(wire)
		if err != nil {
			return err
		}
		msgs = append(msgs, string(msg))
	}
	return b.bc.PublishMany(ctx, msgs...)
}

// Subscribe implements seckill.StatusBus.
func (b *StatusBus) Subscribe(ctx context.Context, orderID int64) (<-chan domain.OrderEvent, func(), error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.stop == nil {
		stop, err := b.bc.Subscribe(context.WithoutCancel(ctx), b.dispatch)
		if err != nil {
			return nil, nil, err
		}
		b.stop = stop
	}
	ch := make(chan domain.OrderEvent, subscriberBuffer)
	if b.subs[orderID] == nil {
		b.subs[orderID] = map[chan domain.OrderEvent]struct{}{}
	}
	b.subs[orderID][ch] = struct{}{}
	cancel := sync.OnceFunc(func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		delete(b.subs[orderID], ch)
		if len(b.subs[orderID]) == 0 {
			delete(b.subs, orderID)
		}
	})
	return ch, cancel, nil
}

// subscriberBuffer is how many events a local subscriber may have unread.
const subscriberBuffer = 4

func (b *StatusBus) dispatch(msg string) {
	if msg == "" {
		// The subscription was confirmed again after a reconnect.
		b.askToReRead()
		return
	}
	// A message is an array of events; a single object is what nodes of an earlier
	// release publish.
	var ws []orderEventWire
	if strings.HasPrefix(msg, "[") {
		if json.Unmarshal([]byte(msg), &ws) != nil {
			return
		}
	} else {
		var w orderEventWire
		if json.Unmarshal([]byte(msg), &w) != nil {
			return
		}
		ws = []orderEventWire{w}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.subs) == 0 {
		return
	}
	for _, w := range ws {
		id, err := strconv.ParseInt(w.OrderID, 10, 64)
		if err != nil || len(b.subs[id]) == 0 {
			continue
		}
		uid, _ := strconv.ParseInt(w.UserID, 10, 64)
		vid, _ := strconv.ParseInt(w.VoucherID, 10, 64)
		e := domain.OrderEvent{OrderID: id, UserID: uid, VoucherID: vid, Status: domain.OrderStatus(w.Status), Reason: w.Reason, At: time.UnixMilli(w.At)}
		for ch := range b.subs[id] {
			select {
			case ch <- e:
			default: // a subscriber that does not read loses events, never blocks others
			}
		}
	}
}

// askToReRead hands every local subscriber a re-read request: events may have been lost
// while the connection was down. A subscriber whose buffer is full loses its oldest
// unread event instead, which the re-read supersedes.
func (b *StatusBus) askToReRead() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for id, chans := range b.subs {
		reread := domain.OrderEvent{OrderID: id}
		for ch := range chans {
			select {
			case ch <- reread:
				continue
			default:
			}
			select {
			case <-ch:
			default:
			}
			select {
			case ch <- reread:
			default:
			}
		}
	}
}

// Close ends the bus's subscription.
func (b *StatusBus) Close() error {
	b.mu.Lock()
	stop := b.stop
	b.stop = nil
	b.mu.Unlock()
	if stop != nil {
		stop()
	}
	return nil
}

// SoldOutBus announces sold-out sales (and stock coming back) to every node.
type SoldOutBus struct{ bc *Broadcast }

var _ seckill.SoldOutBus = (*SoldOutBus)(nil)

// NewSoldOutBus returns the bus on channel.
func NewSoldOutBus(client goredis.UniversalClient, channel string) *SoldOutBus {
	return &SoldOutBus{bc: NewBroadcast(client, channel)}
}

// Publish implements seckill.SoldOutBus: "<voucher id>:1" sold out, ":0" stock back.
func (b *SoldOutBus) Publish(ctx context.Context, voucherID int64, soldOut bool) error {
	return b.bc.Publish(ctx, strconv.FormatInt(voucherID, 10)+":"+flag(soldOut))
}

// Subscribe implements seckill.SoldOutBus.
func (b *SoldOutBus) Subscribe(ctx context.Context, fn func(voucherID int64, soldOut bool)) (func(), error) {
	return b.bc.Subscribe(ctx, func(msg string) {
		v, f, ok := strings.Cut(msg, ":")
		id, err := strconv.ParseInt(v, 10, 64)
		if ok && err == nil {
			fn(id, f == "1")
		}
	})
}
