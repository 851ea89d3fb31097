package redis

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// IDEpoch is the start of order-id time: 2024-01-01T00:00:00Z.
var IDEpoch = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// IDGenerator hands out 64-bit order ids: 31 bits of UTC seconds since IDEpoch, then 32
// bits of a per-second sequence shared by every node through Redis. Nodes take the
// sequence in blocks (one INCRBY per block), so most ids cost no round trip. Ids are
// time-ordered to the second and never repeat after a restart, since a restarted process
// is in a later second or continues the shared counter.
type IDGenerator struct {
	client goredis.UniversalClient
	block  int64
	now    func() time.Time

	mu     sync.Mutex
	second int64
	next   int64
	limit  int64
}

// NewIDGenerator returns a generator taking sequence blocks of size block (1 … 2^20).
func NewIDGenerator(client goredis.UniversalClient, block int) (*IDGenerator, error) {
	if block < 1 || block > 1<<20 {
		return nil, errors.New("id generator: block must be between 1 and 2^20")
	}
	return &IDGenerator{client: client, block: int64(block), now: time.Now}, nil
}

const maxSequence = 1<<32 - 1

// NextID returns a fresh id.
func (g *IDGenerator) NextID(ctx context.Context) (int64, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for {
		sec := int64(g.now().UTC().Sub(IDEpoch) / time.Second)
		if sec < g.second {
			// The clock went back: keep using the later second so ids stay unique.
			sec = g.second
		}
		if sec != g.second || g.next >= g.limit {
			key := "idgen:order:" + strconv.FormatInt(sec, 10)
			var incr *goredis.IntCmd
			_, err := g.client.Pipelined(ctx, func(p goredis.Pipeliner) error {
				incr = p.IncrBy(ctx, key, g.block)
				p.Expire(ctx, key, time.Minute)
				return nil
			})
			if err != nil {
				return 0, fmt.Errorf("take order id block: %w", err)
			}
			end := incr.Val()
			if end > maxSequence {
				// This second's sequence is used up: wait for the next one.
				g.second = sec + 1
				g.next, g.limit = 0, 0
				time.Sleep(time.Until(IDEpoch.Add(time.Duration(sec+1) * time.Second)))
				continue
			}
			g.second, g.next, g.limit = sec, end-g.block, end
		}
		id := g.second<<32 | g.next
		g.next++
		return id, nil
	}
}
