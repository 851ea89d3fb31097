package redis_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
	"github.com/dealspot/dealspot/internal/app/social/follows"
)

func entry(blogID, score int64) follows.FeedEntry {
	return follows.FeedEntry{BlogID: blogID, Score: score}
}

func TestInboxOrdersEqualScoresByIDAndPagesByOffset(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		in, err := redis.NewInboxes(conn.Client, 100)
		if err != nil {
			t.Fatal(err)
		}
		// Ids chosen so that plain decimal strings would sort differently (9 > 10).
		entries := []follows.FeedEntry{
			{BlogID: 9, Score: 1000}, {BlogID: 10, Score: 1000}, {BlogID: 100, Score: 1000},
			{BlogID: 2, Score: 2000}, {BlogID: 11, Score: 500},
		}
		for _, e := range entries {
			if err := in.Push(ctx, []int64{1, 2}, e); err != nil {
				t.Fatal(err)
			}
		}
		// Pushing again changes nothing.
		if err := in.Push(ctx, []int64{1}, entries[0]); err != nil {
			t.Fatal(err)
		}
		all, err := in.Page(ctx, 1, nil, 0, 10)
		if err != nil {
			t.Fatal(err)
		}
		want := []follows.FeedEntry{entry(2, 2000), entry(100, 1000), entry(10, 1000), entry(9, 1000), entry(11, 500)}
		if !slices.Equal(all, want) {
			t.Fatalf("inbox = %v, want %v", all, want)
		}
		max := int64(1000)
		page, err := in.Page(ctx, 1, &max, 2, 2)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(page, want[3:5]) {
			t.Fatalf("page after two entries of score 1000 = %v, want %v", page, want[3:5])
		}
		if err := in.Remove(ctx, 2, []int64{10, 11, 12345}); err != nil {
			t.Fatal(err)
		}
		rest, _ := in.Page(ctx, 2, nil, 0, 10)
		if !slices.Equal(rest, []follows.FeedEntry{entry(2, 2000), entry(100, 1000), entry(9, 1000)}) {
			t.Fatalf("after Remove: %v", rest)
		}
	})
}

func TestInboxKeepsTheNewestEntries(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		in, err := redis.NewInboxes(conn.Client, 5)
		if err != nil {
			t.Fatal(err)
		}
		for i := int64(1); i <= 8; i++ {
			if err := in.Push(ctx, []int64{7}, follows.FeedEntry{BlogID: i, Score: 1000 + i}); err != nil {
				t.Fatal(err)
			}
		}
		if err := in.Add(ctx, 7, []follows.FeedEntry{{BlogID: 20, Score: 1}, {BlogID: 21, Score: 5000}}); err != nil {
			t.Fatal(err)
		}
		got, _ := in.Page(ctx, 7, nil, 0, 100)
		var ids []int64
		for _, e := range got {
			ids = append(ids, e.BlogID)
		}
		if fmt.Sprint(ids) != "[21 8 7 6 5]" {
			t.Fatalf("inbox = %v, want the 5 newest [21 8 7 6 5]", ids)
		}
	})
}

func TestInboxPushReachesManyInboxes(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		in, _ := redis.NewInboxes(conn.Client, 10)
		users := make([]int64, 1234)
		for i := range users {
			users[i] = int64(i + 1)
		}
		if err := in.Push(ctx, users, follows.FeedEntry{BlogID: 99, Score: 42}); err != nil {
			t.Fatal(err)
		}
		for _, u := range []int64{1, 500, 501, 1234} {
			if got, _ := in.Page(ctx, u, nil, 0, 10); !slices.Equal(got, []follows.FeedEntry{entry(99, 42)}) {
				t.Fatalf("inbox of %d = %v", u, got)
			}
		}
	})
}

func TestFanoutStreamDeliversAtLeastOnce(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		cfg := redis.FanoutConfig{Block: 50 * time.Millisecond, ClaimIdle: 300 * time.Millisecond, MaxDeliveries: 3}
		log := slog.New(slog.DiscardHandler)
		// Queued before any consumer exists: must not be lost.
		producer := redis.NewFanoutStream(conn.Client, cfg, log)
		at := time.UnixMilli(1_900_000_000_000)
		for _, id := range []int64{1, 2, 3} {
			if err := producer.Enqueue(ctx, follows.FanoutJob{BlogID: id, AuthorID: 7, At: at}); err != nil {
				t.Fatal(err)
			}
		}

		var (
			mu       sync.Mutex
			done     = map[int64]int{}
			attempts = map[int64]int{}
			calls    atomic.Int64
		)
		handle := func(_ context.Context, j follows.FanoutJob) error {
			calls.Add(1)
			mu.Lock()
			defer mu.Unlock()
			if j.AuthorID != 7 || !j.At.Equal(at) {
				t.Errorf("job %+v lost its fields", j)
			}
			attempts[j.BlogID]++
			switch {
			case j.BlogID == 2 && attempts[2] == 1:
				return errors.New("first try fails")
			case j.BlogID == 3:
				return errors.New("always fails")
			}
			done[j.BlogID]++
			return nil
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
		for {
			mu.Lock()
			finished := done[1] >= 1 && done[2] >= 1 && int64(attempts[3]) >= cfg.MaxDeliveries
			mu.Unlock()
			if finished {
				break
			}
			if time.Now().After(deadline) {
				mu.Lock()
				t.Fatalf("jobs not handled in time: done %v attempts %v", done, attempts)
			}
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
		mu.Lock()
		defer mu.Unlock()
		// Jobs 1 and 2 succeeded, at least once: a node stalled past ClaimIdle before
		// acknowledging may see another node run its job again. Job 3 was delivered
		// exactly MaxDeliveries times whatever the timing, then dropped.
		if done[1] < 1 || done[2] < 1 || int64(attempts[3]) != cfg.MaxDeliveries {
			t.Fatalf("done %v attempts %v; want 1 and 2 done, 3 tried exactly %d times", done, attempts, cfg.MaxDeliveries)
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

func TestInboxRefillMarksItFilledUntilRedisLosesIt(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		in, err := redis.NewInboxes(conn.Client, 3)
		if err != nil {
			t.Fatal(err)
		}
		refill := func(userID int64, entries []follows.FeedEntry) bool {
			t.Helper()
			token, err := in.BeginRefill(ctx, userID)
			if err != nil {
				t.Fatal(err)
			}
			if ok, _ := in.Filled(ctx, userID); ok {
				t.Fatal("an inbox being refilled counts as filled")
			}
			marked, err := in.Refill(ctx, userID, token, entries)
			if err != nil {
				t.Fatal(err)
			}
			return marked
		}
		// Fan-out pushing into an inbox does not make it filled.
		if err := in.Push(ctx, []int64{9}, entry(1, 100)); err != nil {
			t.Fatal(err)
		}
		if ok, err := in.Filled(ctx, 9); err != nil || ok {
			t.Fatalf("Filled after a push only = %v, %v; want false", ok, err)
		}
		if !refill(9, []follows.FeedEntry{entry(2, 200), entry(3, 300), entry(4, 50), entry(5, 400)}) {
			t.Fatal("Refill did not mark the inbox")
		}
		if ok, err := in.Filled(ctx, 9); err != nil || !ok {
			t.Fatalf("Filled after Refill = %v, %v; want true", ok, err)
		}
		got, _ := in.Page(ctx, 9, nil, 0, 10)
		if want := []follows.FeedEntry{entry(5, 400), entry(3, 300), entry(2, 200)}; !slices.Equal(got, want) {
			t.Fatalf("refilled inbox = %v, want the 3 newest %v", got, want)
		}
		// A user following nobody is filled with nothing.
		if !refill(10, nil) {
			t.Fatal("an empty refill does not mark the inbox")
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
		// Two refills at once: the later one marks it.
		first, _ := in.BeginRefill(ctx, 12)
		second, _ := in.BeginRefill(ctx, 12)
		if marked, _ := in.Refill(ctx, 12, first, []follows.FeedEntry{entry(7, 700)}); marked {
			t.Fatal("a refill overtaken by a later one marked the inbox")
		}
		if marked, _ := in.Refill(ctx, 12, second, []follows.FeedEntry{entry(7, 700)}); !marked {
			t.Fatal("the later refill did not mark the inbox")
		}
	})
}
