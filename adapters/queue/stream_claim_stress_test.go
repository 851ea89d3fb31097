//go:build stress

package queue_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/adapters/claimwire"
	"github.com/dealspot/dealspot/adapters/queue"
	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// streamsPending counts the group's pending entries over every shard stream.
func streamsPending(conn *redis.Conn, cfg queue.Config) (int64, error) {
	total := int64(0)
	for k := range cfg.Shards {
		stream := cfg.Namespace + claimwire.StreamForVoucher(int64(k), cfg.Shards)
		p, err := conn.Client.XPending(context.Background(), stream, queue.DefaultGroup).Result()
		if err != nil {
			return 0, err
		}
		total += p.Count
	}
	return total, nil
}

func openRealRedis(t *testing.T) *redis.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := redis.Open(ctx, testsupport.RedisURL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

// TestStrandedStreamEntriesAreAllTakenOver: a consumer dies holding far more entries per
// stream than a consumer keeps in flight, while claims keep coming; two live consumers
// take every one of them over and handle it, and nothing stays pending.
func TestStrandedStreamEntriesAreAllTakenOver(t *testing.T) {
	t.Parallel()
	conn := openRealRedis(t)
	cfg := testConfig(t, queue.BackendRedis)
	cfg.BatchSize = 64
	cfg.ClaimIdle = 2 * time.Second
	live := []*queue.Queue{openQueue(t, cfg, conn), openQueue(t, cfg, conn)}
	stranded := makeClaims(2800)
	for i := range stranded {
		stranded[i].VoucherID = int64(1 + i%4) // 700 on each of 4 streams
	}
	publishAll(t, live[0], stranded, 8)
	ctx := context.Background()
	read := 0
	for v := int64(1); v <= 4; v++ {
		stream := cfg.Namespace + claimwire.StreamForVoucher(v, cfg.Shards)
		res, err := conn.Client.XReadGroup(ctx, &goredis.XReadGroupArgs{
			Group: queue.DefaultGroup, Consumer: "died", Streams: []string{stream, ">"}, Count: 10_000, Block: -1,
		}).Result()
		if err != nil {
			t.Fatalf("XREADGROUP: %v", err)
		}
		read += len(res[0].Messages)
	}
	if read != len(stranded) {
		t.Fatalf("the dying consumer read %d entries, want %d", read, len(stranded))
	}
	rec := newRecorder()
	rec.fail = func([]domain.Claim) error { // a database transaction's worth of work
		time.Sleep(20 * time.Millisecond)
		return nil
	}
	for _, q := range live {
		startConsuming(t, q, rec)
	}
	fresh := makeClaims(500)
	publishAll(t, live[1], fresh, 4)
	all := len(stranded) + len(fresh)
	waitUntil(t, 120*time.Second, func() bool { return rec.handledCount() == all },
		func() string { return fmt.Sprintf("%d of %d handled", rec.handledCount(), all) })
	waitUntil(t, 30*time.Second, func() bool {
		n, err := streamsPending(conn, cfg)
		return err == nil && n == 0
	}, func() string { return "entries still pending" })
}

// TestStrandedStreamClaimsSpareLiveConsumers: batches that take longer than ClaimIdle are
// not taken from the consumers working on them (they refresh what they hold), so every
// claim is handled once.
func TestStrandedStreamClaimsSpareLiveConsumers(t *testing.T) {
	t.Parallel()
	conn := openRealRedis(t)
	cfg := testConfig(t, queue.BackendRedis)
	cfg.ClaimIdle = 3 * time.Second
	cfg.ClaimInterval = 500 * time.Millisecond
	live := []*queue.Queue{openQueue(t, cfg, conn), openQueue(t, cfg, conn)}
	claims := makeClaims(400)
	rec := newRecorder()
	rec.fail = func([]domain.Claim) error {
		time.Sleep(2*cfg.ClaimIdle + time.Second) // a slow transaction
		return nil
	}
	for _, q := range live {
		startConsuming(t, q, rec)
	}
	publishAll(t, live[0], claims, 8)
	waitUntil(t, 180*time.Second, func() bool { return rec.handledCount() == len(claims) },
		func() string { return fmt.Sprintf("%d of %d handled", rec.handledCount(), len(claims)) })
	for _, c := range claims {
		if n := rec.deliveryCount(c.OrderID); n != 1 {
			t.Errorf("claim %d handed to the handler %d times, want once", c.OrderID, n)
		}
	}
}
