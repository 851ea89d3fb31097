package redis_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
	"github.com/dealspot/dealspot/internal/app/social/follows"
	"github.com/dealspot/dealspot/internal/app/social/follows/followstest"
)

// entry is a feed entry of a blog with a score.
var entry = followstest.Entry

// A job that always fails is delivered exactly MaxDeliveries times, by whichever node,
// then dropped, so the pending list empties (delivery at least once:
// followstest.FanoutQueueContract).
func TestFanoutStreamDropsAJobAfterMaxDeliveries(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		cfg := redis.FanoutConfig{Block: 50 * time.Millisecond, ClaimIdle: 300 * time.Millisecond, MaxDeliveries: 3}
		log := slog.New(slog.DiscardHandler)
		producer := redis.NewFanoutStream(conn.Client, cfg, log)
		if err := producer.Enqueue(ctx, follows.FanoutJob{BlogID: 3, AuthorID: 7, At: time.UnixMilli(1_900_000_000_000)}); err != nil {
			t.Fatal(err)
		}
		var attempts atomic.Int64
		handle := func(context.Context, follows.FanoutJob) error {
			attempts.Add(1)
			return errors.New("always fails")
		}
		// Two consumers share the group, as two server nodes would.
		var wg sync.WaitGroup
		for range 2 {
			c := redis.NewFanoutStream(conn.Client, cfg, log)
			wg.Go(func() {
				if err := c.Consume(ctx, handle); err != nil {
					t.Errorf("Consume: %v", err)
				}
			})
		}
		deadline := time.Now().Add(time.Minute)
		for attempts.Load() < cfg.MaxDeliveries && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		// The failing job is dropped after MaxDeliveries, so the pending list empties.
		for time.Now().Before(deadline) {
			n, err := conn.Client.XPending(ctx, "feed:fanout", "feed-fanout").Result()
			if err == nil && n.Count == 0 {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if n, _ := conn.Client.XPending(ctx, "feed:fanout", "feed-fanout").Result(); n.Count != 0 {
			t.Errorf("%d jobs still pending", n.Count)
		}
		cancel()
		wg.Wait()
		// Delivered exactly MaxDeliveries times whatever the timing, then dropped.
		if got := attempts.Load(); got != cfg.MaxDeliveries {
			t.Fatalf("the failing job was tried %d times, want exactly %d", got, cfg.MaxDeliveries)
		}
	})
}

// A job whose consumer died is taken over by another node, but never delivered more than
// MaxDeliveries times in all. Redis decides idleness on its own clock, so the test moves
// the job's idle time instead of waiting: a hook on the taking-over node's client makes
// the job stall (idle past ClaimIdle) just before the n-th command of a take-over pass,
// for every n the pass sends, as a node that is slow between its commands would see.
func TestFanoutStreamNeverRunsAJobPastMaxDeliveries(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		const (
			group         = "feed-fanout"
			maxDeliveries = 3
		)
		log := slog.New(slog.DiscardHandler)
		// age makes the job on stream look idle for an hour, keeping its owner and its
		// delivery count.
		age := func(stream, id string) {
			t.Helper()
			p, err := conn.Client.XPendingExt(ctx, &goredis.XPendingExtArgs{
				Stream: stream, Group: group, Start: id, End: id, Count: 1,
			}).Result()
			if err != nil {
				t.Fatalf("XPENDING %s: %v", stream, err)
			}
			if len(p) == 0 {
				return // acknowledged already
			}
			err = conn.Client.Do(ctx, "XCLAIM", stream, group, p[0].Consumer, 0, id,
				"IDLE", time.Hour.Milliseconds(), "RETRYCOUNT", p[0].RetryCount, "JUSTID").Err()
			if err != nil {
				t.Fatalf("XCLAIM %s %s: %v", stream, id, err)
			}
		}
		stall := &stallHook{}
		client := redis.CloneClient(conn.Client, 0)
		t.Cleanup(func() { _ = client.Close() })
		client.AddHook(stall)

		// A job delivered maxDeliveries-1 times runs once more; one delivered
		// maxDeliveries times does not run again. Either way it is dropped after.
		for _, delivered := range []int64{maxDeliveries - 1, maxDeliveries} {
			for n := 0; ; n++ {
				stream := fmt.Sprintf("feed:fanout:limit:%d:%d", delivered, n)
				producer := redis.NewFanoutStream(conn.Client, redis.FanoutConfig{Stream: stream}, log)
				if err := producer.Enqueue(ctx, follows.FanoutJob{BlogID: 5, AuthorID: 7, At: time.UnixMilli(1_900_000_000_000)}); err != nil {
					t.Fatal(err)
				}
				// A node read it and died; it had been delivered `delivered` times.
				if err := conn.Client.XGroupCreate(ctx, stream, group, "0").Err(); err != nil {
					t.Fatal(err)
				}
				read, err := conn.Client.XReadGroup(ctx, &goredis.XReadGroupArgs{
					Group: group, Consumer: "dead", Streams: []string{stream, ">"}, Count: 1, Block: -1,
				}).Result()
				if err != nil || len(read) != 1 || len(read[0].Messages) != 1 {
					t.Fatalf("XREADGROUP = %v, %v", read, err)
				}
				id := read[0].Messages[0].ID
				if err := conn.Client.Do(ctx, "XCLAIM", stream, group, "dead", 0, id, "RETRYCOUNT", delivered, "JUSTID").Err(); err != nil {
					t.Fatal(err)
				}

				runs := 0
				handle := func(_ context.Context, j follows.FanoutJob) error {
					if j.BlogID != 5 || j.AuthorID != 7 {
						t.Errorf("job %+v lost its fields", j)
					}
					runs++
					return errors.New("always fails")
				}
				node := redis.NewFanoutStream(client, redis.FanoutConfig{
					Stream: stream, Group: group, ClaimIdle: time.Minute, MaxDeliveries: maxDeliveries,
				}, log)
				stall.arm(n, func() { age(stream, id) })
				redis.TakeOver(ctx, node, handle)
				stalled := stall.disarm()
				// Later passes find it stalled every time, as many times as it may be
				// delivered in all.
				for range maxDeliveries {
					age(stream, id)
					redis.TakeOver(ctx, node, handle)
				}

				if want := int(maxDeliveries - delivered); runs != want {
					t.Fatalf("delivered %d times, stalled before command %d of a take-over pass: it ran %d more times, want %d (MaxDeliveries %d)",
						delivered, n, runs, want, maxDeliveries)
				}
				if p, err := conn.Client.XPending(ctx, stream, group).Result(); err != nil || p.Count != 0 {
					t.Fatalf("delivered %d times, stalled before command %d: still pending after %d more passes (%+v, %v)", delivered, n, maxDeliveries, p, err)
				}
				if !stalled {
					break // n is past the pass's last command: every point was tried
				}
			}
		}
	})
}

// stallHook runs a function just before the n-th command (from 0) a client sends after
// arm, once.
type stallHook struct {
	mu      sync.Mutex
	left    int
	fn      func()
	stalled bool
}

func (h *stallHook) arm(n int, fn func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.left, h.fn, h.stalled = n, fn, false
}

// disarm reports whether the function ran, and stops it running later.
func (h *stallHook) disarm() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.fn = nil
	return h.stalled
}

func (h *stallHook) before() {
	h.mu.Lock()
	fn := h.fn
	if fn != nil && h.left > 0 {
		h.left--
		fn = nil
	} else if fn != nil {
		h.fn, h.stalled = nil, true
	}
	h.mu.Unlock()
	if fn != nil {
		fn()
	}
}

func (h *stallHook) DialHook(next goredis.DialHook) goredis.DialHook { return next }

func (h *stallHook) ProcessHook(next goredis.ProcessHook) goredis.ProcessHook {
	return func(ctx context.Context, cmd goredis.Cmder) error {
		h.before()
		return next(ctx, cmd)
	}
}

func (h *stallHook) ProcessPipelineHook(next goredis.ProcessPipelineHook) goredis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []goredis.Cmder) error {
		h.before()
		return next(ctx, cmds)
	}
}

// A filled inbox is no longer filled once Redis lost its data, and a refill across the
// loss leaves it unmarked (what a refill does otherwise: followstest.InboxesContract).
func TestInboxRefillMarksItFilledUntilRedisLosesIt(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		in, err := redis.NewInboxes(conn.Client, 3)
		if err != nil {
			t.Fatal(err)
		}
		if !followstest.RefillInbox(t, in, 9, []follows.FeedEntry{entry(2, 200), entry(3, 300)}) ||
			!followstest.RefillInbox(t, in, 10, nil) {
			t.Fatal("Refill did not mark the inbox")
		}
		redistest.Flush(t, conn)
		for _, u := range []int64{9, 10} {
			if ok, _ := in.Filled(ctx, u); ok {
				t.Fatalf("inbox of %d still filled after Redis lost its data", u)
			}
		}
		// Redis loses its data while a refill reads the database: the refill's entries
		// are added, but the inbox stays unmarked so the next read refills it again.
		token, _ := in.BeginRefill(ctx, 11)
		redistest.Flush(t, conn)
		if marked, err := in.Refill(ctx, 11, token, []follows.FeedEntry{entry(6, 600)}); err != nil || marked {
			t.Fatalf("Refill across a wipe = %v, %v; want not marked", marked, err)
		}
		if ok, _ := in.Filled(ctx, 11); ok {
			t.Fatal("an inbox refilled across a wipe counts as filled")
		}
	})
}
