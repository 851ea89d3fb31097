package redis

import (
	"context"
	_ "embed"
	"fmt"
	"strconv"
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
func (ks *saleKeyspace) buckets(ctx context.Context, voucherID int64, hint int) (int, error) {
	if hint <= 0 {
		if l, ok := ks.layouts.Load(voucherID); ok {
			return len(l.([]int)), nil
		}
		if ks.cfg.BucketsOf == nil {
			return 1, nil
		}
		n, err := ks.cfg.BucketsOf(ctx, voucherID)
		if err != nil {
			return 0, fmt.Errorf("bucket count of sale %d: %w", voucherID, err)
		}
		if n <= 0 {
			return 1, nil // no such sale (yet): nothing to keep
		}
		hint = n
	}
	if hint > ks.cfg.Shards {
		return 0, fmt.Errorf("sale %d has %d buckets, more than the %d shards (SECKILL_SHARDS)", voucherID, hint, ks.cfg.Shards)
	}
	if l, ok := ks.layouts.Load(voucherID); !ok || len(l.([]int)) != hint {
		ks.layouts.Store(voucherID, ks.placeBuckets(claimwire.Shard(voucherID, ks.cfg.Shards), hint))
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
func (ks *saleKeyspace) placeBuckets(home, n int) []int {
	out := make([]int, 1, n)
	out[0] = home
	used := map[int]bool{home: true}
	for b := 1; b < n; b++ {
		target := (ks.slots[home] + b*clusterSlots/n) % clusterSlots
		best, dist := -1, clusterSlots+1
		for k, slot := range ks.slots {
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

// finishTransfer gives a transfer's units to bucket to or, when to refuses them, back to
// from, then forgets the transfer; true when the units reached to. Both gives are at
// most once per transfer, so a transfer finished twice (by its node and by
// CompleteTransfers) moves its units once.
func (ks *saleKeyspace) finishTransfer(ctx context.Context, voucherID int64, from, to int, id string, units int64, epoch string) (bool, error) {
	tk, fk := ks.bucketKeys(voucherID, to), ks.bucketKeys(voucherID, from)
	n, err := seckillGiveScript.Run(ctx, ks.client, []string{tk.stock, tk.meta(), tk.given()}, id, units, epoch).Int64()
	if err != nil {
		return false, fmt.Errorf("give units to bucket %d of sale %d: %w", to, voucherID, err)
	}
	if n < 0 {
		// Refused again by the donor only when it was loaded again too: its stock was
		// then computed afresh, without these units.
		if _, err := seckillGiveScript.Run(ctx, ks.client, []string{fk.stock, fk.meta(), fk.given()}, id, units, epoch).Int64(); err != nil {
			return false, fmt.Errorf("give units back to bucket %d of sale %d: %w", from, voucherID, err)
		}
	}
	// A record left behind is finished again by CompleteTransfers, which moves nothing.
	_ = ks.client.HDel(ctx, fk.xfer(), id).Err()
	return n >= 0, nil
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
		k := g.ks.bucketKeys(r.VoucherID, from)
		res, err := seckillTakeScript.Run(ctx, g.ks.client, []string{k.stock, k.meta(), k.xfer()}, id, to, r.At.UnixMilli()).Slice()
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
		given, err := g.ks.finishTransfer(ctx, r.VoucherID, from, to, id, units, epoch)
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
