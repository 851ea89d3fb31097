package redis_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/claimwire"
	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// splitSale loads a sale of stock units split into buckets, open for an hour around now.
func splitSale(t *testing.T, gate redis.SaleGate, stock int64, buckets int) int64 {
	t.Helper()
	v := time.Now().UnixNano()%1_000_000*100 + gateSales.Add(1)*10
	now := time.Now()
	if _, err := gate.Load(context.Background(), seckill.SaleState{VoucherID: v, Stock: stock, Buckets: buckets,
		BeginTime: now.Add(-time.Minute), EndTime: now.Add(time.Hour)}, true); err != nil {
		t.Fatal(err)
	}
	return v
}

// usersOf returns n user ids, all in bucket b of a sale of buckets buckets (b < 0: any).
func usersOf(n, b, buckets int, from int64) []int64 {
	var out []int64
	for u := from; len(out) < n; u++ {
		if b < 0 || redis.BucketOf(u, buckets) == b {
			out = append(out, u)
		}
	}
	return out
}

// A flood on a sale split into three buckets on three shards, claim by claim and
// coalesced: exactly its stock is sold, one unit per user, the claims go to each
// bucket's own stream, and the sale answers SOLD_OUT only when no bucket has a unit —
// also when every claimant maps to one bucket, which then borrows the others' units.
func TestSplitSaleSellsExactlyItsStock(t *testing.T) {
	t.Parallel()
	eachGateMode(t, redis.Coalescing{Window: 500 * time.Microsecond, Max: 16}, func(t *testing.T, conn *redis.Conn, coalesce redis.Coalescing) {
		for _, c := range []struct {
			name   string
			bucket int
		}{{"users spread over the buckets", -1}, {"every user in one bucket", 1}} {
			t.Run(c.name, func(t *testing.T) {
				ctx := context.Background()
				// One stream per shard, as the queue has; the prefix keeps the test's own.
				prefix := "orders-test:" + testsupport.RandomSuffix(8)
				stream := func(v int64) string { return prefix + claimwire.ShardTag(v, 4) }
				gate, err := redis.NewSaleGate(conn.Client, redis.GateConfig{Shards: 4, Coalesce: coalesce, ClaimStream: stream})
				if err != nil {
					t.Fatal(err)
				}
				const stock, buckets = 61, 3
				v := splitSale(t, gate, stock, buckets)
				users := usersOf(300, c.bucket, buckets, v)
				var (
					mu       sync.Mutex
					verdicts = map[seckill.Verdict]int{}
					holders  = map[int64]int{}
					wg       sync.WaitGroup
					orderID  atomic.Int64
				)
				orderID.Store(v * 1000)
				for _, u := range users {
					for range 2 { // every user claims twice, at once
						wg.Add(1)
						go func() {
							defer wg.Done()
							r := seckill.Reservation{OrderID: orderID.Add(1), UserID: u, VoucherID: v, At: time.Now(), Buckets: buckets,
								RateLimit: seckill.RateLimit{Max: 10, Window: time.Second}}
							verdict, _, err := gate.Reserve(ctx, r)
							if err != nil {
								t.Errorf("reserve: %v", err)
								return
							}
							mu.Lock()
							defer mu.Unlock()
							verdicts[verdict]++
							if verdict == seckill.Accepted {
								holders[u]++
							}
						}()
					}
				}
				wg.Wait()
				if verdicts[seckill.Accepted] != stock || len(holders) != stock ||
					verdicts[seckill.Accepted]+verdicts[seckill.SoldOut]+verdicts[seckill.AlreadyClaimed] != 2*len(users) {
					t.Fatalf("verdicts %v, %d holders; want %d accepted by %d users, the rest sold out or already claimed", verdicts, len(holders), stock, stock)
				}
				if n, ok, err := gate.Stock(ctx, v); err != nil || !ok || n != 0 {
					t.Errorf("stock %d (%v, %v), want 0", n, ok, err)
				}
				if snap, err := gate.Snapshot(ctx, v); err != nil || !snap.Loaded || snap.Stock != 0 || len(snap.Reservations) != stock || len(snap.Versions) != buckets {
					t.Errorf("snapshot: stock %d, %d reservations, versions %v (%v); want 0, %d, one per bucket", snap.Stock, len(snap.Reservations), snap.Versions, err, stock)
				}
				if hs, err := gate.Holders(ctx, v); err != nil || len(hs) != stock {
					t.Errorf("%d holders (%v), want %d", len(hs), err, stock)
				}
				// Each bucket's accepted claims are on its shard's stream, none twice, and the
				// buckets are on three shards.
				var streamed int64
				shards := 0
				for k := range int64(4) {
					n, err := conn.Client.XLen(ctx, stream(k)).Result()
					if err != nil {
						t.Fatal(err)
					}
					streamed += n
					if n > 0 {
						shards++
					}
				}
				if streamed != stock || c.bucket < 0 && shards != buckets {
					t.Errorf("%d claims on the streams of %d shards, want %d on %d", streamed, shards, stock, buckets)
				}
				if n, err := gate.CompleteTransfers(ctx, v, time.Now().Add(time.Hour)); err != nil || n != 0 {
					t.Errorf("transfers left unfinished: %d (%v), want 0", n, err)
				}
			})
		}
	})
}

// A node that dies between taking units from one bucket and giving them to another
// strands them; CompleteTransfers gives them once they are old enough, once, and the
// sale then sells every unit.
func TestSplitSaleStrandedTransferIsCompleted(t *testing.T) {
	t.Parallel()
	eachGateMode(t, redis.Coalescing{Window: 200 * time.Microsecond, Max: 8}, func(t *testing.T, conn *redis.Conn, coalesce redis.Coalescing) {
		ctx := context.Background()
		gate, err := redis.NewSaleGate(conn.Client, redis.GateConfig{Shards: 4, Coalesce: coalesce})
		if err != nil {
			t.Fatal(err)
		}
		v := splitSale(t, gate, 10, 2) // 5 and 5
		at := time.Now()
		if n, err := redis.TakeUnits(ctx, gate, v, 1, 0, "stranded", at); err != nil || n != 3 {
			t.Fatalf("take: %d, %v; want 3 (half of 5, rounded up)", n, err)
		}
		if n, _, err := gate.Stock(ctx, v); err != nil || n != 7 {
			t.Fatalf("stock with 3 units in flight: %d (%v), want 7", n, err)
		}
		if snap, err := gate.Snapshot(ctx, v); err != nil || snap.Stock != 10 {
			t.Fatalf("snapshot stock %d (%v), want 10: units in flight are the sale's", snap.Stock, err)
		}
		if n, err := gate.CompleteTransfers(ctx, v, at); err != nil || n != 0 {
			t.Fatalf("complete transfers not older than the cut: %d, %v; want 0", n, err)
		}
		for range 2 {
			if _, err := gate.CompleteTransfers(ctx, v, at.Add(time.Second)); err != nil {
				t.Fatal(err)
			}
		}
		if n, _, err := gate.Stock(ctx, v); err != nil || n != 10 {
			t.Fatalf("stock after completing the transfer (twice): %d (%v), want 10", n, err)
		}
		users := usersOf(11, 1, 2, v) // all in the bucket the units left
		for i, u := range users {
			want := seckill.Accepted
			if i == 10 {
				want = seckill.SoldOut
			}
			if got, _, err := gate.Reserve(ctx, seckill.Reservation{OrderID: v*100 + int64(i), UserID: u, VoucherID: v, At: time.Now(), Buckets: 2}); err != nil || got != want {
				t.Fatalf("claim %d: %v, %v; want %v", i, got, err, want)
			}
		}
	})
}

// Units taken before the sale was loaded again are not added to the state loaded from
// the database: the transfer is refused by the receiver and by the donor.
func TestSplitSaleTransferAcrossReloadIsRefused(t *testing.T) {
	t.Parallel()
	eachGateMode(t, redis.Coalescing{}, func(t *testing.T, conn *redis.Conn, _ redis.Coalescing) {
		ctx := context.Background()
		gate, err := redis.NewSaleGate(conn.Client, redis.GateConfig{Shards: 4})
		if err != nil {
			t.Fatal(err)
		}
		v := splitSale(t, gate, 10, 2)
		at := time.Now()
		if _, err := redis.TakeUnits(ctx, gate, v, 1, 0, "before-reload", at); err != nil {
			t.Fatal(err)
		}
		now := time.Now()
		if _, err := gate.Load(ctx, seckill.SaleState{VoucherID: v, Stock: 4, Buckets: 2, BeginTime: now.Add(-time.Minute), EndTime: now.Add(time.Hour)}, true); err != nil {
			t.Fatal(err)
		}
		if _, err := gate.CompleteTransfers(ctx, v, at.Add(time.Second)); err != nil {
			t.Fatal(err)
		}
		if n, _, err := gate.Stock(ctx, v); err != nil || n != 4 {
			t.Fatalf("stock %d (%v), want the 4 loaded", n, err)
		}
	})
}

// A bucket lost (its master restarted empty) makes the sale not loaded; loading it
// without replace loads the whole sale again from the database's stock less the
// reservations the other buckets still hold, whose users stay holders.
func TestSplitSaleWithALostBucketIsLoadedAgain(t *testing.T) {
	t.Parallel()
	eachGateMode(t, redis.Coalescing{}, func(t *testing.T, conn *redis.Conn, _ redis.Coalescing) {
		ctx := context.Background()
		gate, err := redis.NewSaleGate(conn.Client, redis.GateConfig{Shards: 4})
		if err != nil {
			t.Fatal(err)
		}
		v := splitSale(t, gate, 9, 3)
		a, b := usersOf(1, 0, 3, v)[0], usersOf(1, 1, 3, v)[0]
		lost := usersOf(1, 2, 3, v)[0]
		for i, u := range []int64{a, b} {
			if got, _, err := gate.Reserve(ctx, seckill.Reservation{OrderID: v*100 + int64(i), UserID: u, VoucherID: v, At: time.Now(), Buckets: 3}); err != nil || got != seckill.Accepted {
				t.Fatalf("claim: %v, %v", got, err)
			}
		}
		if err := redis.DropBucket(ctx, gate, v, 2); err != nil {
			t.Fatal(err)
		}
		if got, _, err := gate.Reserve(ctx, seckill.Reservation{OrderID: v*100 + 5, UserID: lost, VoucherID: v, At: time.Now(), Buckets: 3}); err != nil || got != seckill.NotLoaded {
			t.Fatalf("claim in the lost bucket: %v, %v; want not loaded", got, err)
		}
		if _, ok, err := gate.Stock(ctx, v); err != nil || ok {
			t.Fatalf("stock of a sale with a bucket lost: loaded %v (%v), want not loaded", ok, err)
		}
		now := time.Now()
		state := seckill.SaleState{VoucherID: v, Stock: 9, Buckets: 3, BeginTime: now.Add(-time.Minute), EndTime: now.Add(time.Hour)}
		if ok, err := gate.Load(ctx, state, false); err != nil || !ok {
			t.Fatalf("load: %v, %v; want loaded", ok, err)
		}
		if ok, err := gate.Load(ctx, state, false); err != nil || ok {
			t.Fatalf("load again: %v, %v; want left alone", ok, err)
		}
		if n, ok, err := gate.Stock(ctx, v); err != nil || !ok || n != 7 {
			t.Fatalf("stock %d (%v, %v), want 9 less the 2 reservations still waiting", n, ok, err)
		}
		for _, u := range []int64{a, b} {
			if got, _, err := gate.Reserve(ctx, seckill.Reservation{OrderID: v*100 + 10 + u%7, UserID: u, VoucherID: v, At: time.Now(), Buckets: 3}); err != nil || got != seckill.AlreadyClaimed {
				t.Fatalf("user %d claims again: %v, %v; want already claimed", u, got, err)
			}
		}
	})
}

// A split sale's buckets are on distinct shards, bucket 0 on the sale's own, and on a
// cluster whose masters hold even, contiguous slot ranges they are on as many masters as
// there are buckets for most sales.
func TestBucketPlacementSpreadsOverMasters(t *testing.T) {
	t.Parallel()
	gate, err := redis.NewSaleGate(nil, redis.GateConfig{Shards: 16})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ masters, buckets, atLeast int }{{3, 3, 14}, {3, 2, 16}, {2, 2, 16}, {4, 3, 16}, {4, 4, 16}} {
		spread := 0
		for home := range 16 {
			shards := redis.PlaceBuckets(gate, home, c.buckets)
			seen, masters := map[int]bool{}, map[int]bool{}
			for _, k := range shards {
				if seen[k] || k < 0 || k >= 16 {
					t.Fatalf("sale on shard %d: buckets on shards %v, want %d distinct shards", home, shards, c.buckets)
				}
				seen[k] = true
				masters[int(redis.KeySlot(claimwire.TagOfShard(k)))*c.masters/16384] = true
			}
			if shards[0] != home {
				t.Fatalf("sale on shard %d: bucket 0 on shard %d", home, shards[0])
			}
			if len(masters) == c.buckets {
				spread++
			}
		}
		if spread < c.atLeast {
			t.Errorf("%d buckets on %d masters: %d of 16 sales spread over %d masters, want at least %d", c.buckets, c.masters, spread, c.buckets, c.atLeast)
		}
	}
}

// Nodes loading one split sale at once: one loads it, the others wait and leave it, and
// the buckets share one epoch — units still move between them, so every unit is sold
// even when every claimant is in one bucket. A replacing load waits its turn and applies.
func TestSplitSaleLoadedByManyNodesAtOnce(t *testing.T) {
	t.Parallel()
	eachGateMode(t, redis.Coalescing{}, func(t *testing.T, conn *redis.Conn, _ redis.Coalescing) {
		ctx := context.Background()
		v := time.Now().UnixNano()%1_000_000*100 + gateSales.Add(1)*10
		now := time.Now()
		state := seckill.SaleState{VoucherID: v, Stock: 12, Buckets: 3, BeginTime: now.Add(-time.Minute), EndTime: now.Add(time.Hour)}
		var (
			wg     sync.WaitGroup
			loaded atomic.Int64
		)
		for range 8 {
			gate, err := redis.NewSaleGate(conn.Client, redis.GateConfig{Shards: 4}) // a node each
			if err != nil {
				t.Fatal(err)
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				ok, err := gate.Load(ctx, state, false)
				if err != nil {
					t.Errorf("load: %v", err)
				}
				if ok {
					loaded.Add(1)
				}
			}()
		}
		wg.Wait()
		if loaded.Load() != 1 {
			t.Fatalf("%d loads applied, want 1", loaded.Load())
		}
		gate, err := redis.NewSaleGate(conn.Client, redis.GateConfig{Shards: 4})
		if err != nil {
			t.Fatal(err)
		}
		replaced := state
		replaced.Stock = 9
		if ok, err := gate.Load(ctx, replaced, true); err != nil || !ok {
			t.Fatalf("replacing load: %v, %v", ok, err)
		}
		for i, u := range usersOf(10, 2, 3, v) {
			want := seckill.Accepted
			if i == 9 {
				want = seckill.SoldOut
			}
			if got, _, err := gate.Reserve(ctx, seckill.Reservation{OrderID: v*100 + int64(i), UserID: u, VoucherID: v, At: time.Now(), Buckets: 3}); err != nil || got != want {
				t.Fatalf("claim %d: %v, %v; want %v", i, got, err, want)
			}
		}
	})
}
