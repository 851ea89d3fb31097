package queue

import (
	"context"
	"fmt"
	"strconv"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/adapters/claimwire"
	"github.com/dealspot/dealspot/adapters/queue/redisstream"
)

// deadLetterMaxLen bounds the dead-letter stream (approximately).
const deadLetterMaxLen = 100_000

// redisBackend uses Redis Streams: one stream per shard, orders:{s<k>} (claimwire),
// written by the claim gate inside its Lua script (the stream shares the hash tag of
// the voucher's keys), read by a consumer group on every shard.
type redisBackend struct {
	cfg    Config
	client goredis.UniversalClient
	logger watermill.LoggerAdapter
	pub    message.Publisher
}

func openRedisBackend(ctx context.Context, cfg Config, client goredis.UniversalClient, logger watermill.LoggerAdapter) (*redisBackend, error) {
	b := &redisBackend{cfg: cfg, client: client, logger: logger}
	// The consumer groups exist before any claim is accepted, so a consumer starting
	// later still reads everything (groups start at the stream's first entry).
	for k := range cfg.Shards {
		if err := redisstream.CreateGroup(ctx, client, b.stream(k), cfg.Group); err != nil {
			return nil, err
		}
	}
	// The publisher closes its client when closed: it gets one of its own.
	pub, err := redisstream.NewPublisher(b.newClient(4),
		map[string]int64{cfg.Namespace + deadLetterStream: deadLetterMaxLen}, logger)
	if err != nil {
		return nil, err
	}
	b.pub = pub
	return b, nil
}

// newClient opens a client of the same kind (one server or a cluster) to the same
// server with the given client's options and room for extra connections (per node on a
// cluster).
func (b *redisBackend) newClient(extra int) goredis.UniversalClient {
	poolSize := extra + 10
	switch c := b.client.(type) {
	case *goredis.ClusterClient:
		opts := *c.Options()
		opts.PoolSize = poolSize
		return goredis.NewClusterClient(&opts)
	case *goredis.Client:
		opts := *c.Options()
		opts.PoolSize = poolSize
		return goredis.NewClient(&opts)
	default:
		panic(fmt.Sprintf("queue: cannot open another client like a %T", b.client))
	}
}

func (b *redisBackend) stream(k int) string { return b.cfg.Namespace + claimwire.ShardStream(k) }

func (b *redisBackend) publisher() message.Publisher { return b.pub }

func (b *redisBackend) ordersTopic(voucherID int64) string {
	return b.cfg.Namespace + claimwire.StreamForVoucher(voucherID, b.cfg.Shards)
}

func (b *redisBackend) deadLetterTopic() string { return b.cfg.Namespace + deadLetterStream }

// notSent: a failed XADD may have been applied (the reply lost), so nothing is known.
func (b *redisBackend) notSent(error) bool { return false }

// subscribe starts Consumers group members, each with its own client, each reading
// every shard stream with up to BatchSize entries in flight per stream.
func (b *redisBackend) subscribe() ([]subscription, func(), error) {
	var subs []subscription
	var clients []goredis.UniversalClient
	release := func() {
		for _, c := range clients {
			_ = c.Close()
		}
	}
	for i := range b.cfg.Consumers {
		// Per stream: one blocking read, plus acknowledgements and claims.
		client := b.newClient(3 * b.cfg.Shards)
		clients = append(clients, client)
		sub, err := redisstream.NewSubscriber(redisstream.SubscriberConfig{
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
				name:  "orders-" + claimwire.ShardStream(k) + "-" + strconv.Itoa(i),
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

// depth reads every shard stream's length and its group's pending count in one round
// trip.
func (b *redisBackend) depth(ctx context.Context) ([]Depth, error) {
	lens := make([]*goredis.IntCmd, b.cfg.Shards)
	pending := make([]*goredis.XPendingCmd, b.cfg.Shards)
	_, err := b.client.Pipelined(ctx, func(p goredis.Pipeliner) error {
		for k := range b.cfg.Shards {
			lens[k] = p.XLen(ctx, b.stream(k))
			pending[k] = p.XPending(ctx, b.stream(k), b.cfg.Group)
		}
		return nil
	})
	out := make([]Depth, 0, b.cfg.Shards)
	for k := range b.cfg.Shards {
		// A stream Redis lost (its group goes with it) is left out until recreated.
		if lens[k].Err() != nil || pending[k].Err() != nil {
			continue
		}
		out = append(out, Depth{Queue: b.stream(k), Waiting: lens[k].Val(), InFlight: pending[k].Val().Count})
	}
	if len(out) == 0 && err != nil {
		return nil, fmt.Errorf("read order stream depths: %w", err)
	}
	return out, nil
}
