package redis

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/adapters/claimwire"
	"github.com/dealspot/dealspot/internal/app/seckill"
)

// A sale split into B buckets (domain.FlashSale.Buckets) keeps its stock in B parts on B
// shards (placeBuckets), each with its own stock, holders, window and
// order stream, so every script still touches one slot and one sale's claims are decided
// by B Redis masters instead of one. A user always claims in bucket bucketOf(user, B).
// A bucket that runs dry borrows units from the others (seckill_take.lua, then
// seckill_give.lua); the sale is sold out only when a borrow finds no unit anywhere.

var (
	//go:embed lua/seckill_take.lua
	seckillTakeLua    string
	seckillTakeScript = goredis.NewScript(seckillTakeLua)
	//go:embed lua/seckill_give.lua
	seckillGiveLua    string
	seckillGiveScript = goredis.NewScript(seckillGiveLua)
)

// maxBorrowRounds bounds how often one claim borrows for its dry bucket and tries again
// (each round moves at least one unit that other claims then took first) before it is
// asked to come back in busyWait.
const (
	maxBorrowRounds = 16
	busyWait        = 50 * time.Millisecond
)

// loadLockTTL bounds how long one node's load of a split sale keeps others waiting;
// loadWait is how long they wait for it.
const (
	loadLockTTL = 10 * time.Second
	loadWait    = 5 * time.Second
)

// bucketOf maps a user to one of a sale's buckets, always the same one: the holder set
// that knows the user is always the same, so one order per user stays one SISMEMBER
// (I2). splitmix64's finaliser spreads consecutive ids evenly.
func bucketOf(userID int64, buckets int) int {
	if buckets <= 1 {
		return 0
	}
	x := uint64(userID) + 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	x ^= x >> 31
	return int(x % uint64(buckets))
}

// buckets returns the sale's bucket count: hint when the call carries it, else what the
// gate learnt before, else GateConfig.BucketsOf's answer. A sale's count never changes,
// so it is kept for the life of the process.
func (g *Gate) buckets(ctx context.Context, voucherID int64, hint int) (int, error) {
	if hint <= 0 {
		if l, ok := g.layouts.Load(voucherID); ok {
			return len(l.([]int)), nil
		}
		if g.cfg.BucketsOf == nil {
			return 1, nil
		}
		n, err := g.cfg.BucketsOf(ctx, voucherID)
		if err != nil {
			return 0, fmt.Errorf("bucket count of sale %d: %w", voucherID, err)
		}
		if n <= 0 {
			return 1, nil // no such sale (yet): nothing to keep
		}
		hint = n
	}
	if hint > g.cfg.Shards {
		return 0, fmt.Errorf("sale %d has %d buckets, more than the %d shards (SECKILL_SHARDS)", voucherID, hint, g.cfg.Shards)
	}
	if l, ok := g.layouts.Load(voucherID); !ok || len(l.([]int)) != hint {
		g.layouts.Store(voucherID, g.placeBuckets(claimwire.Shard(voucherID, g.cfg.Shards), hint))
	}
	return hint, nil
}

// placeBuckets returns the shards of a sale's buckets: bucket 0 on the sale's own shard
// (home), bucket b on the unused shard whose tag's Redis Cluster slot is nearest (either
// way round the slot space) to home's slot + b/n of the slot space. Masters of a cluster
// made by redis-cli --cluster create hold even, contiguous slot ranges, so the buckets of
// a sale land on as many masters as there are buckets, up to the masters' number, for
// most sales (with 16 shards on 3 masters: 14 sales of 16 split in three get three
// masters, where consecutive shards would give 6 of 16; split in two, all 16 get two). It
// depends on the shard count alone, so every node places a sale alike.
func (g *Gate) placeBuckets(home, n int) []int {
	out := make([]int, 1, n)
	out[0] = home
	used := map[int]bool{home: true}
	for b := 1; b < n; b++ {
		target := (g.slots[home] + b*clusterSlots/n) % clusterSlots
		best, dist := -1, clusterSlots+1
		for k, slot := range g.slots {
			d := min((slot-target+clusterSlots)%clusterSlots, (target-slot+clusterSlots)%clusterSlots)
			if !used[k] && d < dist {
				best, dist = k, d
			}
		}
		used[best] = true
		out = append(out, best)
	}
	return out
}

type borrowResult int

const (
	borrowedNothing borrowResult = iota // no bucket had a unit: the sale is sold out
	borrowed                            // units reached the dry bucket
	borrowNotLoaded                     // a bucket is not loaded (lost, or loaded again)
)

// reserveDry decides a claim whose bucket ran dry: borrow units for the bucket and try
// again, until the claim is decided or no bucket has a unit left.
func (g *Gate) reserveDry(ctx context.Context, r seckill.Reservation, bucket, buckets int, payload, metadata []byte) (seckill.Verdict, int64, error) {
	retry := r
	retry.RateLimit = seckill.RateLimit{} // the first run counted the claim
	for round := range maxBorrowRounds {
		moved, err := g.borrow(ctx, r, bucket, buckets, round)
		if err != nil {
			return 0, 0, err
		}
		switch moved {
		case borrowedNothing:
			return seckill.SoldOut, 0, nil
		case borrowNotLoaded:
			return seckill.NotLoaded, 0, nil
		}
		v, n, err := g.reserveOne(ctx, retry, bucket, payload, metadata)
		if err != nil || v != seckill.SoldOut {
			return v, n, err
		}
	}
	return seckill.RateLimited, busyWait.Milliseconds(), nil
}

// borrow moves units into the dry bucket from another; the concurrent claims of one dry
// bucket share one transfer.
func (g *Gate) borrow(ctx context.Context, r seckill.Reservation, to, buckets, round int) (borrowResult, error) {
	key := strconv.FormatInt(r.VoucherID, 10) + "/" + strconv.Itoa(to)
	v, err, _ := g.borrows.Do(key, func() (any, error) { return g.borrowOnce(ctx, r, to, buckets, round) })
	if err != nil {
		return 0, err
	}
	return v.(borrowResult), nil
}

// borrowOnce asks the other buckets in turn (starting at one picked by the order id, so
// dry buckets do not all ask the same one first) and takes half of the first one's units
// that has any.
func (g *Gate) borrowOnce(ctx context.Context, r seckill.Reservation, to, buckets, round int) (borrowResult, error) {
	notLoaded := false
	start := int(uint64(r.OrderID) % uint64(buckets-1))
	for i := range buckets - 1 {
		from := (to + 1 + (start+i)%(buckets-1)) % buckets
		id := strconv.FormatInt(r.OrderID, 10) + "." + strconv.Itoa(round) + "." + strconv.Itoa(from)
		k := g.bucketKeys(r.VoucherID, from)
		res, err := seckillTakeScript.Run(ctx, g.client, []string{k.stock, k.meta(), k.xfer()}, id, to, r.At.UnixMilli()).Slice()
		if err != nil {
			return 0, fmt.Errorf("take units from bucket %d of sale %d: %w", from, r.VoucherID, err)
		}
		var (
			units    int64
			epoch    string
			ok1, ok2 bool
		)
		if len(res) == 2 {
			units, ok1 = res[0].(int64)
			epoch, ok2 = res[1].(string)
		}
		switch {
		case !ok1 || !ok2:
			return 0, fmt.Errorf("take units from bucket %d of sale %d: unexpected reply %v", from, r.VoucherID, res)
		case units < 0:
			notLoaded = true
			continue
		case units == 0:
			continue
		}
		given, err := g.finishTransfer(ctx, r.VoucherID, from, to, id, units, epoch)
		if err != nil {
			return 0, err
		}
		if !given {
			return borrowNotLoaded, nil // the dry bucket was lost or loaded again meanwhile
		}
		return borrowed, nil
	}
	if notLoaded {
		return borrowNotLoaded, nil
	}
	return borrowedNothing, nil
}

// finishTransfer gives a transfer's units to bucket to or, when to refuses them, back to
// from, then forgets the transfer; true when the units reached to. Both gives are at
// most once per transfer, so a transfer finished twice (by its node and by
// CompleteTransfers) moves its units once.
func (g *Gate) finishTransfer(ctx context.Context, voucherID int64, from, to int, id string, units int64, epoch string) (bool, error) {
	tk, fk := g.bucketKeys(voucherID, to), g.bucketKeys(voucherID, from)
	n, err := seckillGiveScript.Run(ctx, g.client, []string{tk.stock, tk.meta(), tk.given()}, id, units, epoch).Int64()
	if err != nil {
		return false, fmt.Errorf("give units to bucket %d of sale %d: %w", to, voucherID, err)
	}
	if n < 0 {
		// Refused again by the donor only when it was loaded again too: its stock was
		// then computed afresh, without these units.
		if _, err := seckillGiveScript.Run(ctx, g.client, []string{fk.stock, fk.meta(), fk.given()}, id, units, epoch).Int64(); err != nil {
			return false, fmt.Errorf("give units back to bucket %d of sale %d: %w", from, voucherID, err)
		}
	}
	// A record left behind is finished again by CompleteTransfers, which moves nothing.
	_ = g.client.HDel(ctx, fk.xfer(), id).Err()
	return n >= 0, nil
}

// CompleteTransfers implements seckill.StockGate: it finishes the transfers between a
// split sale's buckets taken before before and not known finished — a node that died
// between taking units and giving them strands them until then.
func (g *Gate) CompleteTransfers(ctx context.Context, voucherID int64, before time.Time) (int, error) {
	n, err := g.buckets(ctx, voucherID, 0)
	if err != nil || n <= 1 {
		return 0, err
	}
	done := 0
	for from := range n {
		recs, err := g.client.HGetAll(ctx, g.bucketKeys(voucherID, from).xfer()).Result()
		if err != nil {
			return done, fmt.Errorf("list transfers of sale %d: %w", voucherID, err)
		}
		for id, rec := range recs {
			// "<to>:<units>:<ms>:<epoch>"
			parts := strings.SplitN(rec, ":", 4)
			if len(parts) != 4 {
				continue
			}
			to, err1 := strconv.Atoi(parts[0])
			units, err2 := strconv.ParseInt(parts[1], 10, 64)
			ms, err3 := strconv.ParseInt(parts[2], 10, 64)
			if err1 != nil || err2 != nil || err3 != nil || to < 0 || to >= n || ms >= before.UnixMilli() {
				continue
			}
			if _, err := g.finishTransfer(ctx, voucherID, from, to, id, units, parts[3]); err != nil {
				return done, err
			}
			done++
		}
	}
	return done, nil
}

// loadSplit loads a split sale: the stock divided evenly, each holder into their bucket,
// every bucket under one new epoch. One node loads a sale at a time (a lock on bucket 0's
// shard); a node that finds another loading waits for it, then loads nothing, or with
// replace loads after it. Without
// replace, a sale all of whose buckets are there is left alone; one with some buckets
// lost (a master restarted empty) is loaded whole again from the database's stock less
// the reservations the remaining buckets still hold — claims accepted while this runs,
// and those of the lost buckets not yet written, may be counted twice, which the
// database's stock guard turns into FAILED orders, never into an oversell.
func (g *Gate) loadSplit(ctx context.Context, s seckill.SaleState, n int, replace bool) (bool, error) {
	lock := g.keys(s.VoucherID).prefix + "loading:" + strconv.FormatInt(s.VoucherID, 10)
	token := eventID()
	for {
		got, err := g.client.SetNX(ctx, lock, token, loadLockTTL).Result()
		if err != nil {
			return false, fmt.Errorf("load sale %d: %w", s.VoucherID, err)
		}
		if got {
			break
		}
		// Another node is loading the sale: without replace its load is as good as ours;
		// a replacing load (the sale changed) goes on once it is done.
		if err := g.awaitLoad(ctx, lock); err != nil || !replace {
			return false, err
		}
	}
	defer func() { _ = cacheUnlockScript.Run(context.WithoutCancel(ctx), g.client, []string{lock}, token).Err() }()
	if !replace {
		present, err := g.presentBuckets(ctx, s.VoucherID, n)
		if err != nil {
			return false, err
		}
		if len(present) == n {
			return false, nil
		}
		for _, b := range present {
			waiting, err := g.reservationsKeys(ctx, s.VoucherID, g.bucketKeys(s.VoucherID, b))
			if err != nil {
				return false, fmt.Errorf("load sale %d: %w", s.VoucherID, err)
			}
			s.Stock -= int64(len(waiting))
			for _, r := range waiting {
				s.Holders = append(s.Holders, r.UserID)
			}
		}
		s.Stock = max(0, s.Stock)
	}
	holders := make([][]any, n)
	for _, u := range s.Holders {
		b := bucketOf(u, n)
		holders[b] = append(holders[b], u)
	}
	epoch := strconv.FormatInt(time.Now().UnixNano(), 36)
	for b := range n {
		k := g.bucketKeys(s.VoucherID, b)
		stock := s.Stock / int64(n)
		if int64(b) < s.Stock%int64(n) {
			stock++
		}
		args := append([]any{stock, s.BeginTime.UnixMilli(), s.EndTime.UnixMilli(), "1", epoch}, holders[b]...)
		keys := []string{k.stock, k.users, k.window, k.gen, k.meta(), k.xfer(), k.given()}
		if err := seckillLoadScript.Run(ctx, g.client, keys, args...).Err(); err != nil {
			return false, fmt.Errorf("load bucket %d of sale %d: %w", b, s.VoucherID, err)
		}
	}
	return true, nil
}

// awaitLoad waits until another node's load of a sale is over (its lock gone).
func (g *Gate) awaitLoad(ctx context.Context, lock string) error {
	deadline := time.Now().Add(loadWait)
	for time.Now().Before(deadline) {
		n, err := g.client.Exists(ctx, lock).Result()
		if err != nil || n == 0 {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
	return nil
}

// presentBuckets lists the buckets that are loaded (stock and window there).
func (g *Gate) presentBuckets(ctx context.Context, voucherID int64, n int) ([]int, error) {
	cmds := make([]*goredis.IntCmd, n)
	_, err := g.client.Pipelined(ctx, func(p goredis.Pipeliner) error {
		for b := range n {
			k := g.bucketKeys(voucherID, b)
			cmds[b] = p.Exists(ctx, k.stock, k.window)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read sale %d: %w", voucherID, err)
	}
	var out []int
	for b, c := range cmds {
		if c.Val() == 2 {
			out = append(out, b)
		}
	}
	return out, nil
}

// snapshotSplit reads the buckets one at a time, each in one MULTI. Its stock is the sum
// of each bucket's stock + out - in, which transfers leave unchanged however they
// interleave with the reads, so units in flight between two buckets are counted once.
// Version is the sum of the buckets' versions, Versions each one's; the sale is loaded
// when every bucket is.
func (g *Gate) snapshotSplit(ctx context.Context, voucherID int64, n int) (seckill.GateSnapshot, error) {
	out := seckill.GateSnapshot{Loaded: true, Versions: make([]int64, n)}
	for b := range n {
		snap, moved, err := g.snapshotKeys(ctx, voucherID, g.bucketKeys(voucherID, b), true)
		if err != nil {
			return seckill.GateSnapshot{}, err
		}
		if !snap.Loaded {
			return seckill.GateSnapshot{}, nil
		}
		out.Version += snap.Version
		out.Versions[b] = snap.Version
		out.Stock += snap.Stock + moved
		out.Reservations = append(out.Reservations, snap.Reservations...)
		out.Holders = append(out.Holders, snap.Holders...)
	}
	return out, nil
}

// repairSplit applies a repair bucket by bucket: refused when a bucket's version moved
// since the snapshot, and each step refused when its bucket's version moved meanwhile
// (false then: the caller reads again; the steps applied are each right on their own). Holders go to their bucket; units added go to bucket 0, units taken come
// from the buckets that have them.
func (g *Gate) repairSplit(ctx context.Context, r seckill.GateRepair, n int) (bool, error) {
	if len(r.Versions) != n {
		return false, fmt.Errorf("repair sale %d: %d versions for %d buckets", r.VoucherID, len(r.Versions), n)
	}
	// Refused whole when a bucket's version already moved; each step checks again.
	gens := make([]*goredis.StringCmd, n)
	if _, err := g.client.Pipelined(ctx, func(p goredis.Pipeliner) error {
		for b := range n {
			gens[b] = p.Get(ctx, g.bucketKeys(r.VoucherID, b).gen)
		}
		return nil
	}); err != nil && !errors.Is(err, goredis.Nil) {
		return false, fmt.Errorf("repair sale %d: %w", r.VoucherID, err)
	}
	for b, c := range gens {
		if v, _ := c.Int64(); v != r.Versions[b] {
			return false, nil
		}
	}
	add, remove := make([][]int64, n), make([][]int64, n)
	for _, u := range r.AddHolders {
		add[bucketOf(u, n)] = append(add[bucketOf(u, n)], u)
	}
	for _, u := range r.RemoveHolders {
		remove[bucketOf(u, n)] = append(remove[bucketOf(u, n)], u)
	}
	deltas := make([]int64, n)
	switch {
	case r.StockDelta > 0:
		deltas[0] = r.StockDelta
	case r.StockDelta < 0:
		stocks := make([]*goredis.StringCmd, n)
		if _, err := g.client.Pipelined(ctx, func(p goredis.Pipeliner) error {
			for b := range n {
				stocks[b] = p.Get(ctx, g.bucketKeys(r.VoucherID, b).stock)
			}
			return nil
		}); err != nil && !errors.Is(err, goredis.Nil) {
			return false, fmt.Errorf("repair sale %d: %w", r.VoucherID, err)
		}
		need := -r.StockDelta
		for b, c := range stocks {
			have, _ := c.Int64()
			take := min(need, max(0, have))
			deltas[b], need = -take, need-take
		}
	}
	applied := true
	for b := range n {
		ok, err := g.repairKeys(ctx, g.bucketKeys(r.VoucherID, b), r.VoucherID, r.Versions[b], deltas[b], r.Remove, add[b], remove[b])
		if err != nil {
			return false, err
		}
		applied = applied && ok
	}
	return applied, nil
}

// parseCount reads field i of an HMGET reply as a number (0 when absent).
func parseCount(vals []any, i int) int64 {
	if i >= len(vals) {
		return 0
	}
	s, _ := vals[i].(string)
	n, _ := strconv.ParseInt(s, 10, 64)
	return n
}
