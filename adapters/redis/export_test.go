package redis

import (
	"context"
	"time"
)

// BucketOf is bucketOf, for tests that pick users of one bucket.
var BucketOf = bucketOf

// TakeUnits runs the first half of a transfer between two buckets of a split sale and
// stops there, as a node dying between the two halves would; it returns the units taken.
func TakeUnits(ctx context.Context, g SaleGate, voucherID int64, from, to int, id string, at time.Time) (int64, error) {
	k := g.Gate.ks.bucketKeys(voucherID, from)
	res, err := seckillTakeScript.Run(ctx, g.Gate.ks.client, []string{k.stock, k.meta(), k.xfer()}, id, to, at.UnixMilli()).Slice()
	if err != nil {
		return 0, err
	}
	n, _ := res[0].(int64)
	return n, nil
}

// DropBucket deletes one bucket's state, as a Redis master restarted empty does.
func DropBucket(ctx context.Context, g SaleGate, voucherID int64, b int) error {
	k := g.Gate.ks.bucketKeys(voucherID, b)
	for _, key := range []string{k.stock, k.users, k.window, k.gen, k.meta(), k.xfer(), k.given(), k.pending} {
		if err := g.Gate.ks.client.Del(ctx, key).Err(); err != nil {
			return err
		}
	}
	return nil
}

// PlaceBuckets is the gate's placement of a sale's buckets on shards.
func PlaceBuckets(g SaleGate, home, n int) []int { return g.Gate.ks.placeBuckets(home, n) }
