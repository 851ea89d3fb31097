package queue

import (
	"context"
	"fmt"
	"strconv"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill-redisstream/pkg/redisstream"
	"github.com/ThreeDotsLabs/watermill/message"
	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/adapters/redis"
)

// deadLetterMaxLen bounds the dead-letter stream (approximately).
const deadLetterMaxLen = 100_000

// redisBackend uses Redis Streams: one stream per shard, orders:{s<k>}, written by the
// claim gate inside its Lua script (the stream shares the hash tag of the voucher's
// keys), read by a consumer group on every shard.
type redisBackend struct {
	cfg    Config
	conn   *redis.Conn
	logger watermill.LoggerAdapter
	pub    *redisstream.Publisher
}

func openRedisBackend(ctx context.Context, cfg Config, conn *redis.Conn, logger watermill.LoggerAdapter) (*redisBackend, error) {
	b := &redisBackend{cfg: cfg, conn: conn, logger: logger}
	// The consumer groups exist before any claim is accepted, so a consumer starting
	// later still reads everything (groups start at the stream's first entry).
	setup := conn.Client
	for k := range cfg.Shards {
		if err := createGroup(ctx, setup, b.stream(k), cfg.Group); err != nil {
			return nil, err
		}
	}
	// The publisher closes its client when closed: it gets one of its own.
	pub, err := redisstream.NewPublisher(redisstream.PublisherConfig{
		Client:  b.newClient(4),
		Maxlens: map[string]int64{cfg.Namespace + deadLetterStream: deadLetterMaxLen},
	}, logger)
	if err != nil {
		return nil, err
	}
	b.pub = pub
	return b, nil
}

// newClient opens a client to the same server with the connection's options and room
// for extra connections.
func (b *redisBackend) newClient(extra int) *goredis.Client {
	opts := *b.conn.Client.Options()
	opts.PoolSize = extra + 10
	return goredis.NewClient(&opts)
}

func (b *redisBackend) stream(k int) string { return b.cfg.Namespace + shardStream(k) }

func (b *redisBackend) publisher() message.Publisher { return b.pub }

func (b *redisBackend) ordersTopic(voucherID int64) string {
	return b.cfg.Namespace + StreamForVoucher(voucherID, b.cfg.Shards)
}

func (b *redisBackend) deadLetterTopic() string { return b.cfg.Namespace + deadLetterStream }

// subscribe starts Consumers group members, each with its own client, each reading
// every shard stream with up to BatchSize entries in flight per stream.
func (b *redisBackend) subscribe() ([]subscription, func(), error) {
	var subs []subscription
	var clients []*goredis.Client
	release := func() {
		for _, c := range clients {
			_ = c.Close()
		}
	}
	for i := range b.cfg.Consumers {
		// Per stream: one blocking read, plus acknowledgements and claims.
		client := b.newClient(3 * b.cfg.Shards)
		clients = append(clients, client)
		sub, err := newStreamSubscriber(streamSubscriberConfig{
			Client:        client,
			Group:         b.cfg.Group,
			Window:        b.cfg.BatchSize,
			ClaimIdle:     b.cfg.ClaimIdle,
			ClaimInterval: b.cfg.ClaimInterval,
			DrainTimeout:  b.cfg.DrainTimeout,
			DeleteAcked:   true,
		}, b.logger)
		if err != nil {
			release()
			return nil, nil, err
		}
		for k := range b.cfg.Shards {
			subs = append(subs, subscription{
				name:  "orders-" + shardStream(k) + "-" + strconv.Itoa(i),
				topic: b.stream(k),
				sub:   sub,
			})
		}
	}
	return subs, release, nil
}

func (b *redisBackend) close() error {
	if err := b.pub.Close(); err != nil {
		return fmt.Errorf("close redis publisher: %w", err)
	}
	return nil
}
