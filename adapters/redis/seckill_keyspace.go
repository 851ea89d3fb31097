package redis

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/adapters/claimwire"
	"github.com/dealspot/dealspot/internal/app/seckill"
)

// saleKeyspace is what the parts of a SaleGate share: the client, the configuration,
// the naming of a sale's keys, where a split sale's buckets live, and the reads of the
// reservation hashes.
type saleKeyspace struct {
	client goredis.UniversalClient
	cfg    GateConfig
	// layouts caches each sale's bucket shards (placeBuckets; a sale's bucket count never
	// changes).
	layouts sync.Map
	// slots are the cluster slots of the shards' hash tags.
	slots []int
}

// saleKeys are the keys of a sale, or of one bucket of a sale split into buckets.
// Reservations live in pending, one hash per shard shared by the shard's sales (order id
// -> "<voucher>:<user>:<ms>"), so an order is found by its id alone. legacy is the sale's
// own hash where reservations were kept before ("<user>:<ms>"); it is still read, settled
// and dropped from, never written. gen counts the drops, loads and repairs of the sale
// (of the bucket), so that a repair computed from a snapshot is applied only if none came
// in between. route is the id whose shard holds the keys and their order stream. The
// keys the claim does not touch are methods, built only when used.
type saleKeys struct {
	prefix, stock, users, pending, window, legacy, gen, voucher string
	// name is the voucher id, with ".<bucket>" for bucket b > 0.
	name   string
	bucket int
	route  int64
}

// returned is the set of orders whose unit came back (seckill_return.lua).
func (k saleKeys) returned() string { return k.prefix + "returned:" + k.name }

// meta, xfer and given are a bucket's transfer counters and records (seckill_take.lua).
func (k saleKeys) meta() string {
	return k.prefix + "bucket:" + k.voucher + "." + strconv.Itoa(k.bucket)
}
func (k saleKeys) xfer() string { return k.prefix + "xfer:" + k.voucher + "." + strconv.Itoa(k.bucket) }
func (k saleKeys) given() string {
	return k.prefix + "given:" + k.voucher + "." + strconv.Itoa(k.bucket)
}

// pendingKey is shard k's hash of reservations by order id.
func pendingKey(k int) string { return "seckill:" + claimwire.TagOfShard(k) + ":pending" }

func parseReservation(voucherID, orderID int64, v string) (seckill.Reservation, bool) {
	user, at, ok := strings.Cut(v, ":")
	uid, err1 := strconv.ParseInt(user, 10, 64)
	ms, err2 := strconv.ParseInt(at, 10, 64)
	if !ok || err1 != nil || err2 != nil {
		return seckill.Reservation{}, false
	}
	return seckill.Reservation{OrderID: orderID, UserID: uid, VoucherID: voucherID, At: time.UnixMilli(ms)}, true
}

func flag(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// keys are the keys of a sale in one bucket (bucket 0 of a split sale has the same).
func (ks *saleKeyspace) keys(voucherID int64) saleKeys { return ks.bucketKeys(voucherID, 0) }

// bucketKeys are the keys of bucket b of a sale: bucket 0 keeps the layout of a sale in
// one bucket, on the sale's shard; bucket b > 0 lives on the shard placeBuckets gave it
// (the sale's layout is known by then: every caller asked buckets first).
func (ks *saleKeyspace) bucketKeys(voucherID int64, b int) saleKeys {
	route := voucherID
	if b > 0 {
		if l, ok := ks.layouts.Load(voucherID); ok && b < len(l.([]int)) {
			route = int64(l.([]int)[b]) // shard k's own id: Shard(k) = k
		}
	}
	p := "seckill:" + claimwire.ShardTag(route, ks.cfg.Shards) + ":"
	v := strconv.FormatInt(voucherID, 10)
	name := v
	if b > 0 {
		name = v + "." + strconv.Itoa(b)
	}
	return saleKeys{prefix: p, stock: p + "stock:" + name, users: p + "users:" + name, pending: p + "pending",
		window: p + "window:" + name, legacy: p + "reservations:" + name, gen: p + "gen:" + name,
		voucher: v, name: name, bucket: b, route: route}
}

// claimStream is the stream the claims of k's sale (or bucket) are XADDed to: the one
// of the shard holding k (k.route), which for bucket b > 0 is where placeBuckets put the
// bucket. The scripts and the publish span both name it here.
func (ks *saleKeyspace) claimStream(k saleKeys) string { return ks.cfg.ClaimStream(k.route) }

// scanHash calls fn for each entry of a reservation hash whose field is an order id.
func (ks *saleKeyspace) scanHash(ctx context.Context, key string, fn func(orderID int64, value string)) error {
	iter := ks.client.HScan(ctx, key, 0, "", 500).Iterator()
	for iter.Next(ctx) {
		field := iter.Val()
		if !iter.Next(ctx) {
			break
		}
		if id, err := strconv.ParseInt(field, 10, 64); err == nil {
			fn(id, iter.Val())
		}
	}
	return iter.Err()
}

// reservationsKeys lists the reservations of the sale (or of one bucket) on its shard.
func (ks *saleKeyspace) reservationsKeys(ctx context.Context, voucherID int64, k saleKeys) ([]seckill.Reservation, error) {
	var out []seckill.Reservation
	for _, key := range []string{k.pending, k.legacy} {
		err := ks.scanHash(ctx, key, func(id int64, v string) {
			if key == k.pending {
				vid, rest, _ := strings.Cut(v, ":")
				if vid != k.voucher {
					return
				}
				v = rest
			}
			if r, ok := parseReservation(voucherID, id, v); ok {
				out = append(out, r)
			}
		})
		if err != nil {
			return nil, fmt.Errorf("list reservations of voucher %d: %w", voucherID, err)
		}
	}
	return out, nil
}

// reservations scans each bucket's shard hash for the sale's reservations (and the
// sale's legacy hash).
func (ks *saleKeyspace) reservations(ctx context.Context, voucherID int64) ([]seckill.Reservation, error) {
	n, err := ks.buckets(ctx, voucherID, 0)
	if err != nil {
		return nil, fmt.Errorf("list reservations of voucher %d: %w", voucherID, err)
	}
	var out []seckill.Reservation
	for b := range n {
		rs, err := ks.reservationsKeys(ctx, voucherID, ks.bucketKeys(voucherID, b))
		if err != nil {
			return nil, err
		}
		out = append(out, rs...)
	}
	return out, nil
}
