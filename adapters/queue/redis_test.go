package queue_test

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/adapters/claimwire"
	"github.com/dealspot/dealspot/adapters/queue"
	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
	"github.com/dealspot/dealspot/internal/domain"
)

// gateXAdd writes an order message the way the claim gate's Lua script does:
// XADD <stream> * _watermill_message_uuid <orderId> metadata "" payload <json>.
func gateXAdd(t *testing.T, c goredis.UniversalClient, stream, orderID, payload string) {
	t.Helper()
	err := c.XAdd(context.Background(), &goredis.XAddArgs{
		Stream: stream,
		Values: []any{"_watermill_message_uuid", orderID, "metadata", "", "payload", payload},
	}).Err()
	if err != nil {
		t.Fatalf("XADD: %v", err)
	}
}

func TestRedisStreamsBackend(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		t.Run("the consumer groups exist on every shard stream after Open", func(t *testing.T) {
			t.Parallel()
			cfg := testConfig(t, queue.BackendRedis)
			cfg.Shards = 8
			openQueue(t, cfg, conn)
			for k := range cfg.Shards {
				stream := cfg.Namespace + claimwire.StreamForVoucher(int64(k), cfg.Shards)
				groups, err := conn.Client.XInfoGroups(context.Background(), stream).Result()
				if err != nil {
					t.Fatalf("XINFO GROUPS %s: %v", stream, err)
				}
				if len(groups) != 1 || groups[0].Name != queue.DefaultGroup {
					t.Fatalf("groups on %s = %+v, want %s", stream, groups, queue.DefaultGroup)
				}
			}
		})

		t.Run("a message written by the gate script is consumed", func(t *testing.T) {
			t.Parallel()
			cfg := testConfig(t, queue.BackendRedis)
			q := openQueue(t, cfg, conn)
			rec := newRecorder()
			startConsuming(t, q, rec)
			// An order id above 2^53 travels as a string; claimedAt is what cjson prints.
			const orderID = "9007199254740993"
			stream := cfg.Namespace + claimwire.StreamForVoucher(7, cfg.Shards)
			gateXAdd(t, conn.Client, stream, orderID,
				`{"orderId":"9007199254740993","userId":"42","voucherId":"7","claimedAt":1760000000123}`)
			waitUntil(t, 10*time.Second, func() bool { return rec.handledCount() == 1 },
				func() string { return "the gate's message was not handled" })
			want := domain.Claim{OrderID: 9007199254740993, UserID: 42, VoucherID: 7, ClaimedAt: time.UnixMilli(1760000000123).UTC()}
			if got := rec.handledClaims()[want.OrderID]; got != want {
				t.Fatalf("handled %+v, want %+v", got, want)
			}
			// Acknowledged entries are removed from the stream.
			waitUntil(t, 5*time.Second, func() bool {
				n, err := conn.Client.XLen(context.Background(), stream).Result()
				return err == nil && n == 0
			}, func() string { return "acknowledged entry still in the stream" })
		})

		t.Run("entries of a consumer that died are taken over after ClaimIdle", func(t *testing.T) {
			t.Parallel()
			cfg := testConfig(t, queue.BackendRedis)
			cfg.ClaimIdle = 300 * time.Millisecond
			q := openQueue(t, cfg, conn)
			claims := makeClaims(20)
			publishAll(t, q, claims, 4)
			// A consumer reads everything and dies without acknowledging.
			ctx := context.Background()
			read := 0
			for k := range cfg.Shards {
				stream := cfg.Namespace + claimwire.StreamForVoucher(int64(k), cfg.Shards)
				res, err := conn.Client.XReadGroup(ctx, &goredis.XReadGroupArgs{
					Group: queue.DefaultGroup, Consumer: "died", Streams: []string{stream, ">"}, Count: 100, Block: -1,
				}).Result()
				if err != nil && err != goredis.Nil {
					t.Fatalf("XREADGROUP: %v", err)
				}
				for _, s := range res {
					read += len(s.Messages)
				}
			}
			if read != len(claims) {
				t.Fatalf("the dying consumer read %d entries, want %d", read, len(claims))
			}
			rec := newRecorder()
			startConsuming(t, q, rec)
			waitUntil(t, 15*time.Second, func() bool { return rec.handledCount() == len(claims) },
				func() string { return fmt.Sprintf("%d of %d taken over and handled", rec.handledCount(), len(claims)) })
			waitUntil(t, 5*time.Second, func() bool {
				total := int64(0)
				for k := range cfg.Shards {
					stream := cfg.Namespace + claimwire.StreamForVoucher(int64(k), cfg.Shards)
					p, err := conn.Client.XPending(ctx, stream, queue.DefaultGroup).Result()
					if err != nil {
						return false
					}
					total += p.Count
				}
				return total == 0
			}, func() string { return "entries still pending" })
		})

		t.Run("entries stranded on a dead consumer are taken over in one pass however many", func(t *testing.T) {
			t.Parallel()
			cfg := testConfig(t, queue.BackendRedis)
			cfg.BatchSize = 8 // entries in flight per stream
			cfg.ClaimIdle = 300 * time.Millisecond
			cfg.ClaimInterval = time.Hour // one pass at start, then none within the test
			q := openQueue(t, cfg, conn)
			claims := makeClaims(300)
			for i := range claims {
				claims[i].VoucherID = 7 // one stream
			}
			publishAll(t, q, claims, 4)
			ctx := context.Background()
			stream := cfg.Namespace + claimwire.StreamForVoucher(7, cfg.Shards)
			res, err := conn.Client.XReadGroup(ctx, &goredis.XReadGroupArgs{
				Group: queue.DefaultGroup, Consumer: "died", Streams: []string{stream, ">"}, Count: 1000, Block: -1,
			}).Result()
			if err != nil || len(res) != 1 || len(res[0].Messages) != len(claims) {
				t.Fatalf("the dying consumer read %v (%v), want %d entries", len(res), err, len(claims))
			}
			// Every entry has been idle longer than ClaimIdle when the consumer starts.
			time.Sleep(2 * cfg.ClaimIdle)
			rec := newRecorder()
			rec.fail = func([]domain.Claim) error { // a database transaction's worth of work
				time.Sleep(5 * time.Millisecond)
				return nil
			}
			startConsuming(t, q, rec)
			waitUntil(t, 60*time.Second, func() bool { return rec.handledCount() == len(claims) },
				func() string { return fmt.Sprintf("%d of %d taken over and handled", rec.handledCount(), len(claims)) })
		})

		t.Run("an entry that is not a claim goes to the dead letter without dead", func(t *testing.T) {
			t.Parallel()
			cfg := testConfig(t, queue.BackendRedis)
			q := openQueue(t, cfg, conn)
			rec := newRecorder()
			startConsuming(t, q, rec)
			stream := cfg.Namespace + claimwire.StreamForVoucher(3, cfg.Shards)
			gateXAdd(t, conn.Client, stream, "17", `{"orderId":"17","userId":"oops"}`)
			// Not even Watermill's fields.
			if err := conn.Client.XAdd(context.Background(), &goredis.XAddArgs{
				Stream: stream, Values: []any{"hello", "world"},
			}).Err(); err != nil {
				t.Fatalf("XADD: %v", err)
			}
			good := makeClaims(1)[0]
			good.VoucherID = 3
			if err := q.PublishClaim(context.Background(), good); err != nil {
				t.Fatalf("publish: %v", err)
			}
			waitUntil(t, 10*time.Second, func() bool { return rec.handledCount() == 1 },
				func() string { return "the good claim was not handled" })
			deadStream := cfg.Namespace + "orders:dead"
			waitUntil(t, 10*time.Second, func() bool {
				n, _ := conn.Client.XLen(context.Background(), deadStream).Result()
				return n == 2
			}, func() string { return "the dead letter does not hold both entries" })
			waitUntil(t, 5*time.Second, func() bool {
				p, err := conn.Client.XPending(context.Background(), stream, queue.DefaultGroup).Result()
				return err == nil && p.Count == 0
			}, func() string { return "undecodable entries were not acknowledged" })
			if n := rec.deadCount(); n != 0 {
				t.Fatalf("dead called %d times for messages that are not claims", n)
			}
		})

		t.Run("publishing writes to the voucher's shard stream", func(t *testing.T) {
			t.Parallel()
			cfg := testConfig(t, queue.BackendRedis)
			q := openQueue(t, cfg, conn)
			if !q.PublishedByGate() {
				t.Fatal("PublishedByGate = false for the redis backend")
			}
			c := makeClaims(1)[0]
			c.VoucherID = 35 // shard 3 of 16
			if err := q.PublishClaim(context.Background(), c); err != nil {
				t.Fatalf("publish: %v", err)
			}
			entries, err := conn.Client.XRange(context.Background(), cfg.Namespace+"orders:{s3}", "-", "+").Result()
			if err != nil || len(entries) != 1 {
				t.Fatalf("orders:{s3} holds %v (%v), want one entry", entries, err)
			}
			v := entries[0].Values
			if v["_watermill_message_uuid"] != strconv.FormatInt(c.OrderID, 10) {
				t.Fatalf("message uuid %v, want the order id %d", v["_watermill_message_uuid"], c.OrderID)
			}
			got, err := claimwire.DecodeClaim([]byte(v["payload"].(string)))
			if err != nil || got != c {
				t.Fatalf("payload decodes to %+v (%v), want %+v", got, err, c)
			}
		})
	})
}
