package redis

import (
	"context"
	"fmt"
	"sync"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/internal/readcache"
)

// DefaultCacheInvalidationChannel is the Pub/Sub channel cache invalidations travel on.
// Channels are server-wide (not per database): deployments sharing one server should
// each use their own.
const DefaultCacheInvalidationChannel = "cache:invalidate"

// Broadcast sends short text messages to every process over one Redis Pub/Sub channel.
// Pub/Sub is fire-and-forget: a process that is disconnected misses messages, which is
// why subscribers are told (with "") when their subscription had to be re-established.
type Broadcast struct {
	client  goredis.UniversalClient
	channel string
}

// NewBroadcast returns a Broadcast on client and channel.
func NewBroadcast(client goredis.UniversalClient, channel string) *Broadcast {
	return &Broadcast{client: client, channel: channel}
}

// CacheInvalidations broadcasts cache invalidations; each message is the key
// "<cache name>:<id>".
type CacheInvalidations = Broadcast

var _ readcache.Invalidations = (*CacheInvalidations)(nil)

// NewCacheInvalidations returns CacheInvalidations on client and channel ("" means
// DefaultCacheInvalidationChannel).
func NewCacheInvalidations(client goredis.UniversalClient, channel string) *CacheInvalidations {
	if channel == "" {
		channel = DefaultCacheInvalidationChannel
	}
	return NewBroadcast(client, channel)
}

// Publish sends msg to every subscriber (implements readcache.Invalidations).
func (i *Broadcast) Publish(ctx context.Context, msg string) error {
	return i.PublishMany(ctx, msg)
}

// PublishMany sends msgs to every subscriber in one round trip, in order. On a cluster
// every node passes a PUBLISH to all subscribers, but a cluster client sends each
// keyless command to a node of its choosing, and a pipeline split over nodes runs its
// parts concurrently: there the messages go through the master of the channel's slot,
// always the same node, so they keep their order within and across calls.
func (i *Broadcast) PublishMany(ctx context.Context, msgs ...string) error {
	var client goredis.Cmdable = i.client
	if cc, ok := i.client.(*goredis.ClusterClient); ok {
		m, err := cc.MasterForKey(ctx, i.channel)
		if err != nil {
			return fmt.Errorf("publish on %s: %w", i.channel, err)
		}
		client = m
	}
	_, err := client.Pipelined(ctx, func(p goredis.Pipeliner) error {
		for _, m := range msgs {
			p.Publish(ctx, i.channel, m)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("publish on %s: %w", i.channel, err)
	}
	return nil
}

// Subscribe calls handle with every message until stop is called (implements
// readcache.Invalidations). Each subscription has its own connection, which go-redis
// re-establishes (and re-subscribes) after a failure; handle then gets "".
func (i *Broadcast) Subscribe(ctx context.Context, handle func(key string)) (func(), error) {
	ps := i.client.Subscribe(ctx, i.channel)
	// Wait for the server's confirmation, so later publishes are sure to arrive.
	if _, err := ps.Receive(ctx); err != nil {
		_ = ps.Close()
		return nil, fmt.Errorf("subscribe to %s: %w", i.channel, err)
	}
	msgs := ps.ChannelWithSubscriptions(goredis.WithChannelSize(1024))
	done := make(chan struct{})
	go func() {
		defer close(done)
		for m := range msgs {
			switch m := m.(type) {
			case *goredis.Message:
				handle(m.Payload)
			case *goredis.Subscription:
				// The first confirmation was read above, so this one follows a
				// reconnect: messages may have been lost in between.
				if m.Kind == "subscribe" {
					handle("")
				}
			}
		}
	}()
	stop := sync.OnceFunc(func() {
		_ = ps.Close()
		<-done
	})
	return stop, nil
}
