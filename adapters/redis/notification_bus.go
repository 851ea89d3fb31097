package redis

import (
	"context"
	"strconv"
	"strings"
	"sync"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/internal/app/inbox"
)

// DefaultNotificationChannel is the Pub/Sub channel that tells nodes whose
// notifications changed.
const DefaultNotificationChannel = "notifications:changed"

// NotificationBus tells every node over Redis Pub/Sub whose notifications changed: a
// message is the users' ids, comma-separated. Each process keeps one subscription and
// signals its local subscribers by user. Pub/Sub delivers at most once; when the
// subscription is confirmed again after a reconnect, every local subscriber is
// signalled, since changes may have gone by meanwhile.
type NotificationBus struct {
	bc *Broadcast

	mu   sync.Mutex
	subs map[int64]map[chan struct{}]struct{}
	stop func()
}

var _ inbox.Bus = (*NotificationBus)(nil)

// NewNotificationBus returns the bus on channel.
func NewNotificationBus(client goredis.UniversalClient, channel string) *NotificationBus {
	return &NotificationBus{bc: NewBroadcast(client, channel), subs: map[int64]map[chan struct{}]struct{}{}}
}

// usersPerMessage bounds how many user ids one message carries.
const usersPerMessage = 512

// Publish implements inbox.Bus: one message per usersPerMessage users, all in one
// round trip.
func (b *NotificationBus) Publish(ctx context.Context, userIDs ...int64) error {
	var msgs []string
	for start := 0; start < len(userIDs); start += usersPerMessage {
		part := userIDs[start:min(start+usersPerMessage, len(userIDs))]
		ids := make([]string, len(part))
		for i, id := range part {
			ids[i] = strconv.FormatInt(id, 10)
		}
		msgs = append(msgs, strings.Join(ids, ","))
	}
	if len(msgs) == 0 {
		return nil
	}
	return b.bc.PublishMany(ctx, msgs...)
}

// Subscribe implements inbox.Bus.
func (b *NotificationBus) Subscribe(ctx context.Context, userID int64) (<-chan struct{}, func(), error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.stop == nil {
		stop, err := b.bc.Subscribe(context.WithoutCancel(ctx), b.dispatch)
		if err != nil {
			return nil, nil, err
		}
		b.stop = stop
	}
	ch := make(chan struct{}, 1)
	if b.subs[userID] == nil {
		b.subs[userID] = map[chan struct{}]struct{}{}
	}
	b.subs[userID][ch] = struct{}{}
	cancel := sync.OnceFunc(func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		delete(b.subs[userID], ch)
		if len(b.subs[userID]) == 0 {
			delete(b.subs, userID)
		}
	})
	return ch, cancel, nil
}

func (b *NotificationBus) dispatch(msg string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if msg == "" {
		// Confirmed again after a reconnect: changes may have been missed.
		for _, chans := range b.subs {
			signalAll(chans)
		}
		return
	}
	for _, s := range strings.Split(msg, ",") {
		id, err := strconv.ParseInt(s, 10, 64)
		if err == nil {
			signalAll(b.subs[id])
		}
	}
}

// signalAll signals every channel of chans that holds no signal yet.
func signalAll(chans map[chan struct{}]struct{}) {
	for ch := range chans {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// Close ends the bus's subscription.
func (b *NotificationBus) Close() error {
	b.mu.Lock()
	stop := b.stop
	b.stop = nil
	b.mu.Unlock()
	if stop != nil {
		stop()
	}
	return nil
}
