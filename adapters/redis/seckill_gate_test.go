package redis_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/adapters/claimwire"
	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
	"github.com/dealspot/dealspot/internal/app/seckill"
)

var gateSales atomic.Int64

// eachGateMode runs fn as subtests on every Redis, for each way the gate reserves:
// "per-call", claim by claim, and "coalesced" into batches as coalesced says.
func eachGateMode(t *testing.T, coalesced redis.Coalescing, fn func(t *testing.T, conn *redis.Conn, coalesce redis.Coalescing)) {
	t.Helper()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		for _, mode := range []struct {
			name     string
			coalesce redis.Coalescing
		}{{"per-call", redis.Coalescing{}}, {"coalesced", coalesced}} {
			t.Run(mode.name, func(t *testing.T) { fn(t, conn, mode.coalesce) })
		}
	})
}

// A flood of concurrent claims on two live sales, one not started and one never loaded,
// claim by claim and coalesced (where several sales share a batch): each mode sells
// exactly the stock, one unit per user, and answers the rest as a claim decided alone
// is answered.
func TestGateReserveUnderConcurrency(t *testing.T) {
	t.Parallel()
	eachGateMode(t, redis.Coalescing{Window: 500 * time.Microsecond, Max: 16}, func(t *testing.T, conn *redis.Conn, coalesce redis.Coalescing) {
		ctx := context.Background()
		base := time.Now().UnixNano()%1_000_000*100 + gateSales.Add(1)*10
		// The stream shares the sale's hash tag, as the queue's shard streams do.
		stream := func(v int64) string { return fmt.Sprintf("orders-test:%s:%d", claimwire.ShardTag(v, 4), v) }
		gate, err := redis.NewSaleGate(conn.Client, redis.GateConfig{Shards: 4, Coalesce: coalesce, ClaimStream: stream})
		if err != nil {
			t.Fatal(err)
		}
		live := []int64{base + 1, base + 2}
		later, unknown := base+3, base+4
		now := time.Now()
		for _, v := range live {
			if _, err := gate.Load(ctx, seckill.SaleState{VoucherID: v, Stock: 30, BeginTime: now.Add(-time.Minute), EndTime: now.Add(time.Hour)}, true); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := gate.Load(ctx, seckill.SaleState{VoucherID: later, Stock: 5, BeginTime: now.Add(time.Hour), EndTime: now.Add(2 * time.Hour)}, true); err != nil {
			t.Fatal(err)
		}
		const users = 100
		var (
			mu       sync.Mutex
			verdicts = map[int64]map[seckill.Verdict]int{}
			holders  = map[int64]map[int64]int{}
			wg       sync.WaitGroup
			orderID  atomic.Int64
		)
		orderID.Store(base * 1000)
		for _, v := range append(live, later, unknown) {
			verdicts[v], holders[v] = map[seckill.Verdict]int{}, map[int64]int{}
		}
		for u := int64(1); u <= users; u++ {
			for _, v := range append(live, later, unknown) {
				for range 2 { // every user claims every sale twice, at once
					wg.Add(1)
					go func() {
						defer wg.Done()
						r := seckill.Reservation{OrderID: orderID.Add(1), UserID: u, VoucherID: v, At: time.Now(),
							RateLimit: seckill.RateLimit{Max: 10, Window: time.Second}}
						verdict, _, err := gate.Reserve(ctx, r)
						if err != nil {
							t.Errorf("reserve: %v", err)
							return
						}
						mu.Lock()
						defer mu.Unlock()
						verdicts[v][verdict]++
						if verdict == seckill.Accepted {
							holders[v][u]++
						}
					}()
				}
			}
		}
		wg.Wait()
		for _, v := range live {
			got := verdicts[v]
			if got[seckill.Accepted] != 30 || len(holders[v]) != 30 || got[seckill.Accepted]+got[seckill.SoldOut]+got[seckill.AlreadyClaimed] != 2*users {
				t.Errorf("sale %d: verdicts %v, %d holders; want 30 accepted by 30 users, the rest sold out or already claimed", v, got, len(holders[v]))
			}
			if stock, ok, err := gate.Stock(ctx, v); err != nil || !ok || stock != 0 {
				t.Errorf("sale %d: stock %d (%v, %v), want 0", v, stock, ok, err)
			}
			if hs, err := gate.Holders(ctx, v); err != nil || len(hs) != 30 {
				t.Errorf("sale %d: %d holders (%v), want 30", v, len(hs), err)
			}
			if rs, err := gate.Reservations(ctx, v); err != nil || len(rs) != 30 {
				t.Errorf("sale %d: %d reservations (%v), want 30", v, len(rs), err)
			}
			if n, err := conn.Client.XLen(ctx, stream(v)).Result(); err != nil || n != 30 {
				t.Errorf("sale %d: %d claims on the stream (%v), want 30", v, n, err)
			}
		}
		if got := verdicts[later]; got[seckill.NotStarted] != 2*users {
			t.Errorf("sale not started: verdicts %v", got)
		}
		if got := verdicts[unknown]; got[seckill.NotLoaded] != 2*users {
			t.Errorf("sale never loaded: verdicts %v", got)
		}
	})
}

// The per-user rate limit inside the script: within one window a user gets at most Max
// decisions, the rest RATE_LIMITED with the time to wait — also when the claims share a
// batch.
func TestGateRateLimitInsideTheScript(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		for _, coalesce := range []redis.Coalescing{{}, {Window: time.Millisecond, Max: 64}} {
			ctx := context.Background()
			v := time.Now().UnixNano()%1_000_000*100 + gateSales.Add(1)*10 + 5
			gate, err := redis.NewSaleGate(conn.Client, redis.GateConfig{Shards: 4, Coalesce: coalesce})
			if err != nil {
				t.Fatal(err)
			}
			now := time.Now()
			if _, err := gate.Load(ctx, seckill.SaleState{VoucherID: v, Stock: 100, BeginTime: now.Add(-time.Minute), EndTime: now.Add(time.Hour)}, true); err != nil {
				t.Fatal(err)
			}
			// The limit is per user per sale shard: a user of its own for each round.
			user := v
			var wg sync.WaitGroup
			var limited, decided atomic.Int64
			for i := range 10 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					verdict, wait, err := gate.Reserve(ctx, seckill.Reservation{OrderID: v*100 + int64(i), UserID: user, VoucherID: v, At: now,
						RateLimit: seckill.RateLimit{Max: 3, Window: 10 * time.Second}})
					switch {
					case err != nil:
						t.Error(err)
					case verdict == seckill.RateLimited:
						if wait <= 0 || wait > 10_000 {
							t.Errorf("rate limited with wait %d ms", wait)
						}
						limited.Add(1)
					default:
						decided.Add(1)
					}
				}()
			}
			wg.Wait()
			if decided.Load() != 3 || limited.Load() != 7 {
				t.Errorf("coalesce %+v: %d decided, %d rate limited; want 3 and 7", coalesce, decided.Load(), limited.Load())
			}
		}
	})
}

// A Redis that forgot the scripts (restarted, or SCRIPT FLUSH) loads them again on the
// first coalesced claim; a Redis that cannot be reached fails every waiting claim with
// an error instead of leaving it hanging.
func TestGateCoalescedSurvivesScriptFlushAndReportsOutages(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		v := time.Now().UnixNano()%1_000_000*100 + gateSales.Add(1)*10 + 7
		coalesce := redis.Coalescing{Window: time.Millisecond, Max: 8}
		gate, err := redis.NewSaleGate(conn.Client, redis.GateConfig{Shards: 4, Coalesce: coalesce})
		if err != nil {
			t.Fatal(err)
		}
		now := time.Now()
		if _, err := gate.Load(ctx, seckill.SaleState{VoucherID: v, Stock: 100, BeginTime: now.Add(-time.Minute), EndTime: now.Add(time.Hour)}, true); err != nil {
			t.Fatal(err)
		}
		if err := conn.Client.ScriptFlush(ctx).Err(); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for u := range int64(20) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				verdict, _, err := gate.Reserve(ctx, seckill.Reservation{OrderID: v*100 + u, UserID: u + 1, VoucherID: v, At: time.Now()})
				if err != nil || verdict != seckill.Accepted {
					t.Errorf("claim after SCRIPT FLUSH: %v, %v", verdict, err)
				}
			}()
		}
		wg.Wait()
		if stock, _, err := gate.Stock(ctx, v); err != nil || stock != 80 {
			t.Errorf("stock %d (%v), want 80", stock, err)
		}

		// Nothing listens on port 1.
		down := goredis.NewClient(&goredis.Options{Addr: "127.0.0.1:1", MaxRetries: -1, DialTimeout: 200 * time.Millisecond})
		defer down.Close()
		broken, err := redis.NewSaleGate(down, redis.GateConfig{Shards: 4, Coalesce: coalesce})
		if err != nil {
			t.Fatal(err)
		}
		errs := make(chan error, 10)
		for u := range int64(10) {
			go func() {
				_, _, err := broken.Reserve(ctx, seckill.Reservation{OrderID: u + 1, UserID: u + 1, VoucherID: v, At: time.Now()})
				errs <- err
			}()
		}
		for range 10 {
			select {
			case err := <-errs:
				if err == nil {
					t.Error("claim against an unreachable Redis succeeded")
				}
			case <-time.After(5 * time.Second):
				t.Fatal("claim against an unreachable Redis still waiting after 5s")
			}
		}
	})
}

// A reservation is found by its order id alone, in either mode, until it is settled or
// dropped.
func TestGatePendingByOrderID(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		for _, coalesce := range []redis.Coalescing{{}, {Window: 200 * time.Microsecond, Max: 8}} {
			ctx := context.Background()
			gate, err := redis.NewSaleGate(conn.Client, redis.GateConfig{Shards: 4, Coalesce: coalesce})
			if err != nil {
				t.Fatal(err)
			}
			base := time.Now().UnixNano()%1_000_000*100 + gateSales.Add(1)*10
			now := time.Now()
			for v := base + 1; v <= base+3; v++ {
				if _, err := gate.Load(ctx, seckill.SaleState{VoucherID: v, Stock: 5, BeginTime: now.Add(-time.Minute), EndTime: now.Add(time.Hour)}, true); err != nil {
					t.Fatal(err)
				}
			}
			orders := map[int64]int64{} // order id -> voucher
			for i, v := range []int64{base + 1, base + 2, base + 3} {
				id := base*1000 + int64(i)
				if verdict, _, err := gate.Reserve(ctx, seckill.Reservation{OrderID: id, UserID: 42, VoucherID: v, At: now}); err != nil || verdict != seckill.Accepted {
					t.Fatalf("reserve: %v %v", verdict, err)
				}
				orders[id] = v
			}
			for id, v := range orders {
				r, ok, err := gate.Pending(ctx, id)
				if err != nil || !ok || r.VoucherID != v || r.UserID != 42 || r.OrderID != id || r.At.UnixMilli() != now.UnixMilli() {
					t.Fatalf("pending %d: %+v %v %v", id, r, ok, err)
				}
			}
			if _, ok, err := gate.Pending(ctx, base*1000+99); err != nil || ok {
				t.Fatalf("unknown order: %v %v", ok, err)
			}
			if err := gate.Settle(ctx, base+1, []int64{base * 1000}); err != nil {
				t.Fatal(err)
			}
			if _, err := gate.Drop(ctx, base+2, base*1000+1, seckill.Release{Stock: true, Slot: true}); err != nil {
				t.Fatal(err)
			}
			for id, want := range map[int64]bool{base * 1000: false, base*1000 + 1: false, base*1000 + 2: true} {
				if _, ok, err := gate.Pending(ctx, id); err != nil || ok != want {
					t.Fatalf("order %d after settle/drop: pending %v (want %v), %v", id, ok, want, err)
				}
			}
			// A sale's reservations are listed from the shared shard hash, without its
			// neighbours', and a drop names the right sale or does nothing.
			if rs, err := gate.Reservations(ctx, base+3); err != nil || len(rs) != 1 || rs[0].OrderID != base*1000+2 {
				t.Fatalf("reservations of sale 3: %+v %v", rs, err)
			}
			if dropped, err := gate.Drop(ctx, base+1, base*1000+2, seckill.Release{Stock: true}); err != nil || dropped {
				t.Fatalf("drop through another sale: %v %v", dropped, err)
			}
			// A reservation kept in the sale's own hash, as before the shard hash, is
			// still listed and dropped with its stock.
			legacy := fmt.Sprintf("seckill:%s:reservations:%d", claimwire.ShardTag(base+3, 4), base+3)
			if err := conn.Client.HSet(ctx, legacy, fmt.Sprint(base*1000+50), fmt.Sprintf("43:%d", now.UnixMilli())).Err(); err != nil {
				t.Fatal(err)
			}
			if rs, err := gate.Reservations(ctx, base+3); err != nil || len(rs) != 2 {
				t.Fatalf("reservations with a legacy one: %+v %v", rs, err)
			}
			stock, _, _ := gate.Stock(ctx, base+3)
			if dropped, err := gate.Drop(ctx, base+3, base*1000+50, seckill.Release{Stock: true, Slot: true}); err != nil || !dropped {
				t.Fatalf("drop legacy: %v %v", dropped, err)
			}
			if after, _, _ := gate.Stock(ctx, base+3); after != stock+1 {
				t.Fatalf("legacy drop gave back %d units, want 1", after-stock)
			}
		}
	})
}

// go-redis retries a gate call whose reply timed out, although the script may have run:
// a second run of the same claim (same order id, voucher and user) answers the first
// run's verdict — accepted, with the stock left — and changes nothing: one unit taken,
// one holder, one reservation, one stream entry, and the rate limit not spent again.
// Claim by claim (a batch of one) and coalesced, both through seckill_reserve.lua.
func TestGateReserveRetriedClaimIsIdempotent(t *testing.T) {
	t.Parallel()
	eachGateMode(t, redis.Coalescing{Window: 200 * time.Microsecond, Max: 8}, func(t *testing.T, conn *redis.Conn, coalesce redis.Coalescing) {
		for _, c := range []struct {
			streamed bool
			limit    seckill.RateLimit
		}{{false, seckill.RateLimit{}}, {true, seckill.RateLimit{}}, {false, seckill.RateLimit{Max: 1, Window: time.Minute}}, {true, seckill.RateLimit{Max: 1, Window: time.Minute}}} {
			streamed := c.streamed
			t.Run(fmt.Sprintf("streamed=%v/limit=%d", streamed, c.limit.Max), func(t *testing.T) {
				ctx := context.Background()
				base := time.Now().UnixNano()%1_000_000*100 + gateSales.Add(1)*10
				voucher := base + 1
				streamKey := fmt.Sprintf("orders-test:%s:%d", claimwire.ShardTag(voucher, 4), voucher)
				cfg := redis.GateConfig{Shards: 4, Coalesce: coalesce}
				if streamed {
					cfg.ClaimStream = func(int64) string { return streamKey }
				}
				gate, err := redis.NewSaleGate(conn.Client, cfg)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { conn.Client.Del(context.Background(), streamKey) })
				now := time.Now()
				if _, err := gate.Load(ctx, seckill.SaleState{VoucherID: voucher, Stock: 5, BeginTime: now.Add(-time.Minute), EndTime: now.Add(time.Hour)}, true); err != nil {
					t.Fatal(err)
				}
				user := base // the rate limit is per user and outlives the test
				claim := seckill.Reservation{OrderID: base*1000 + 7, UserID: user, VoucherID: voucher, At: now, RateLimit: c.limit}
				first, n1, err := gate.Reserve(ctx, claim)
				if err != nil || first != seckill.Accepted || n1 != 4 {
					t.Fatalf("first call: %v %d %v", first, n1, err)
				}
				retry, n2, err := gate.Reserve(ctx, claim)
				if err != nil || retry != seckill.Accepted || n2 != 4 {
					t.Fatalf("retried call: %v %d %v, want accepted with 4 left as the first call", retry, n2, err)
				}
				if stock, _, err := gate.Stock(ctx, voucher); err != nil || stock != 4 {
					t.Fatalf("stock %d after a retried claim, want 4 (%v)", stock, err)
				}
				if hs, err := gate.Holders(ctx, voucher); err != nil || len(hs) != 1 || hs[0] != user {
					t.Fatalf("holders %v (%v), want [%d]", hs, err, user)
				}
				if rs, err := gate.Reservations(ctx, voucher); err != nil || len(rs) != 1 || rs[0].OrderID != claim.OrderID {
					t.Fatalf("reservations %+v (%v), want one for order %d", rs, err, claim.OrderID)
				}
				if streamed {
					if n, err := conn.Client.XLen(ctx, streamKey).Result(); err != nil || n != 1 {
						t.Fatalf("stream holds %d entries (%v), want 1", n, err)
					}
				}
				// A new claim of the same user is still refused as before.
				other := claim
				other.OrderID++
				other.RateLimit = seckill.RateLimit{}
				if v, _, err := gate.Reserve(ctx, other); err != nil || v != seckill.AlreadyClaimed {
					t.Fatalf("another claim of the holder: %v %v, want already claimed", v, err)
				}
			})
		}
	})
}
