package redis

import (
	"cmp"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	goredis "github.com/redis/go-redis/v9"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	"golang.org/x/sync/singleflight"

	"github.com/dealspot/dealspot/adapters/claimwire"
	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
)

var (
	//go:embed lua/seckill_reserve.lua
	seckillReserveLua    string
	seckillReserveScript = goredis.NewScript(seckillReserveLua)
	//go:embed lua/seckill_reserve_batch.lua
	seckillReserveBatchLua    string
	seckillReserveBatchScript = goredis.NewScript(seckillReserveBatchLua)
	//go:embed lua/seckill_drop.lua
	seckillDropLua    string
	seckillDropScript = goredis.NewScript(seckillDropLua)
	//go:embed lua/seckill_load.lua
	seckillLoadLua    string
	seckillLoadScript = goredis.NewScript(seckillLoadLua)
	//go:embed lua/seckill_return.lua
	seckillReturnLua    string
	seckillReturnScript = goredis.NewScript(seckillReturnLua)
	//go:embed lua/seckill_repair.lua
	seckillRepairLua    string
	seckillRepairScript = goredis.NewScript(seckillRepairLua)
)

// GateConfig shapes the flash-sale gate.
type GateConfig struct {
	// Shards is the number of hash-tag shards sales are spread over ({s0} … {sN-1}).
	Shards int
	// ClaimStream, when set, names the stream Reserve XADDs a voucher's claims to; it
	// must carry the voucher's shard tag (see claimwire.StreamForVoucher). Bucket b > 0
	// of a sale split into buckets lives on a shard k of its own, and its claims go to
	// ClaimStream(k) (Shard(k) = k). Nil: Reserve enqueues nothing.
	ClaimStream func(voucherID int64) string
	// Coalesce batches concurrent Reserve calls: a batch's claims on one sale run as one
	// script (seckill_reserve_batch.lua), all of a batch's sales in one pipeline.
	Coalesce Coalescing
	// BucketsOf returns a sale's bucket count (domain.FlashSale.Buckets) when a call does
	// not carry it and the gate has not seen the sale; nil: every such sale has one.
	BucketsOf func(ctx context.Context, voucherID int64) (int, error)
}

// Gate is the flash-sale StockGate: one Lua script per decision, every key of a sale
// under its shard's hash tag so the scripts run unchanged on Redis Cluster.
type Gate struct {
	client goredis.UniversalClient
	cfg    GateConfig
	// batcher coalesces Reserve calls (nil: one script run per call).
	batcher *reserveBatcher
	// layouts caches each sale's bucket shards (placeBuckets; a sale's bucket count never
	// changes); borrows lets the claims of one dry bucket share one transfer.
	layouts sync.Map
	// slots are the cluster slots of the shards' hash tags.
	slots   []int
	borrows singleflight.Group
}

var (
	_ seckill.StockGate   = (*Gate)(nil)
	_ orders.UnitReturner = (*Gate)(nil)
	_ orders.SaleGauge    = (*Gate)(nil)
)

// NewGate returns the gate on client.
func NewGate(client goredis.UniversalClient, cfg GateConfig) (*Gate, error) {
	if cfg.Shards < 1 {
		return nil, errors.New("seckill gate: shards must be at least 1")
	}
	g := &Gate{client: client, cfg: cfg, slots: make([]int, cfg.Shards)}
	for k := range g.slots {
		g.slots[k] = int(KeySlot(claimwire.TagOfShard(k)))
	}
	if cfg.Coalesce.On() {
		g.batcher = newReserveBatcher(g, cfg.Coalesce)
	}
	return g, nil
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

// keys are the keys of a sale in one bucket (bucket 0 of a split sale has the same).
func (g *Gate) keys(voucherID int64) saleKeys { return g.bucketKeys(voucherID, 0) }

// bucketKeys are the keys of bucket b of a sale: bucket 0 keeps the layout of a sale in
// one bucket, on the sale's shard; bucket b > 0 lives on the shard placeBuckets gave it
// (the sale's layout is known by then: every caller asked buckets first).
func (g *Gate) bucketKeys(voucherID int64, b int) saleKeys {
	route := voucherID
	if b > 0 {
		if l, ok := g.layouts.Load(voucherID); ok && b < len(l.([]int)) {
			route = int64(l.([]int)[b]) // shard k's own id: Shard(k) = k
		}
	}
	p := "seckill:" + claimwire.ShardTag(route, g.cfg.Shards) + ":"
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
func (g *Gate) claimStream(k saleKeys) string { return g.cfg.ClaimStream(k.route) }

// pendingKey is shard k's hash of reservations by order id.
func pendingKey(k int) string { return "seckill:" + claimwire.TagOfShard(k) + ":pending" }

// Reserve implements seckill.StockGate. It is idempotent per order id: go-redis sends a
// script again when its reply timed out (MaxRetries), and a second run of the same claim
// answers the first run's acceptance without taking a second unit or queuing a second
// message, as long as the reservation has not yet been settled.
func (g *Gate) Reserve(ctx context.Context, r seckill.Reservation) (_ seckill.Verdict, _ int64, err error) {
	// Within a recorded trace: a span per claim around its wait for the gate (the
	// coalesced batch it ran in is an attribute) and, where the gate enqueues the claim,
	// the publish span whose context the stream entry's metadata carries to the consumer.
	ctx, span := childSpan(ctx, "seckill.gate reserve", trace.SpanKindClient)
	if span != nil {
		defer func() { endSpan(span, err) }()
		span.SetAttributes(attribute.String("db.system.name", "redis"),
			attribute.Int64("dealspot.order_id", r.OrderID), attribute.Int64("dealspot.voucher_id", r.VoucherID))
	}
	buckets, err := g.buckets(ctx, r.VoucherID, r.Buckets)
	if err != nil {
		return 0, 0, err
	}
	bucket := bucketOf(r.UserID, buckets)
	var (
		payload, metadata []byte
		pub               trace.Span
	)
	if g.cfg.ClaimStream != nil {
		payload = claimwire.EncodeClaim(domain.Claim{OrderID: r.OrderID, UserID: r.UserID, VoucherID: r.VoucherID, ClaimedAt: r.At})
		if span != nil {
			stream := g.claimStream(g.bucketKeys(r.VoucherID, bucket))
			var pctx context.Context
			pctx, pub = childSpan(ctx, stream+" publish", trace.SpanKindProducer)
			defer func() { endSpan(pub, err) }()
			pub.SetAttributes(attribute.String("messaging.system", "redis"), attribute.String("messaging.operation.type", "send"),
				attribute.String("messaging.destination.name", stream), attribute.String("messaging.message.id", strconv.FormatInt(r.OrderID, 10)))
			metadata = claimwire.TraceMetadata(pctx)
		}
	}
	var (
		verdict seckill.Verdict
		n       int64
	)
	if g.batcher != nil {
		var batch int
		verdict, n, batch, err = g.batcher.reserve(ctx, r, bucket, payload, metadata)
		if span != nil && batch > 0 {
			span.SetAttributes(attribute.Int("dealspot.gate.batch_claims", batch))
		}
	} else {
		verdict, n, err = g.reserveOne(ctx, r, bucket, payload, metadata)
	}
	if err == nil && verdict == seckill.SoldOut && buckets > 1 {
		// The user's bucket ran dry: the sale is sold out only once no bucket has a unit.
		verdict, n, err = g.reserveDry(ctx, r, bucket, buckets, payload, metadata)
	}
	if err != nil {
		return 0, 0, fmt.Errorf("reserve voucher %d: %w", r.VoucherID, err)
	}
	if span != nil {
		span.SetAttributes(attribute.Int("dealspot.gate.verdict", int(verdict)))
	}
	if pub != nil {
		// The script writes the message only for an accepted claim.
		pub.SetAttributes(attribute.Bool("dealspot.gate.enqueued", verdict == seckill.Accepted))
	}
	return verdict, n, nil
}

// reserveOne runs seckill_reserve.lua for r alone, in the sale's bucket.
func (g *Gate) reserveOne(ctx context.Context, r seckill.Reservation, bucket int, payload, metadata []byte) (seckill.Verdict, int64, error) {
	k := g.bucketKeys(r.VoucherID, bucket)
	keys := []string{k.stock, k.users, k.pending, k.window, k.prefix + "rate:" + strconv.FormatInt(r.UserID, 10)}
	if payload != nil {
		keys = append(keys, g.claimStream(k))
	}
	args := []any{r.UserID, strconv.FormatInt(r.OrderID, 10), r.At.UnixMilli(), payload, r.RateLimit.Max, r.RateLimit.Window.Milliseconds(), r.VoucherID, metadata}
	reply, err := seckillReserveScript.Run(ctx, g.client, keys, args...).Result()
	if err != nil {
		return 0, 0, err
	}
	res, ok := reply.([]any)
	if !ok || len(res) != 2 {
		return 0, 0, fmt.Errorf("unexpected reply %v", reply)
	}
	verdict, ok1 := res[0].(int64)
	n, ok2 := res[1].(int64)
	if !ok1 || !ok2 || verdict < 0 || verdict > int64(seckill.RateLimited) {
		return 0, 0, fmt.Errorf("unexpected reply %v", reply)
	}
	return seckill.Verdict(verdict), n, nil
}

// Drop implements seckill.StockGate, in whichever bucket holds the reservation (each
// bucket's shard has its own reservation hash).
func (g *Gate) Drop(ctx context.Context, voucherID, orderID int64, rel seckill.Release) (bool, error) {
	n, err := g.buckets(ctx, voucherID, 0)
	if err != nil {
		return false, fmt.Errorf("drop reservation %d: %w", orderID, err)
	}
	for b := range n {
		dropped, err := g.dropKeys(ctx, g.bucketKeys(voucherID, b), orderID, rel)
		if err != nil || dropped {
			return dropped, err
		}
	}
	return false, nil
}

// dropKeys runs seckill_drop.lua on the sale's (or one bucket's) keys.
func (g *Gate) dropKeys(ctx context.Context, k saleKeys, orderID int64, rel seckill.Release) (bool, error) {
	n, err := seckillDropScript.Run(ctx, g.client, []string{k.stock, k.users, k.pending, k.legacy, k.gen},
		strconv.FormatInt(orderID, 10), flag(rel.Stock), flag(rel.Slot), k.voucher).Int64()
	if err != nil {
		return false, fmt.Errorf("drop reservation %d: %w", orderID, err)
	}
	return n == 1, nil
}

func flag(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// Settle implements seckill.StockGate: the reservations go from every bucket's hash (and
// the legacy hash), in one pipeline. Settling leaves the version alone: it changes
// neither stock nor holders, and a repair computed across it errs toward less stock (see
// seckill_repair.lua).
func (g *Gate) Settle(ctx context.Context, voucherID int64, orderIDs []int64) error {
	if len(orderIDs) == 0 {
		return nil
	}
	n, err := g.buckets(ctx, voucherID, 0)
	if err == nil {
		fields := make([]string, len(orderIDs))
		for i, id := range orderIDs {
			fields[i] = strconv.FormatInt(id, 10)
		}
		_, err = g.client.Pipelined(ctx, func(p goredis.Pipeliner) error {
			for b := range n {
				k := g.bucketKeys(voucherID, b)
				p.HDel(ctx, k.pending, fields...)
				if b == 0 {
					p.HDel(ctx, k.legacy, fields...)
				}
			}
			return nil
		})
	}
	if err != nil {
		return fmt.Errorf("settle reservations of voucher %d: %w", voucherID, err)
	}
	return nil
}

// Load implements seckill.StockGate.
func (g *Gate) Load(ctx context.Context, s seckill.SaleState, replace bool) (bool, error) {
	if n, err := g.buckets(ctx, s.VoucherID, s.Buckets); err != nil {
		return false, fmt.Errorf("load sale %d: %w", s.VoucherID, err)
	} else if n > 1 {
		return g.loadSplit(ctx, s, n, replace)
	}
	k := g.keys(s.VoucherID)
	args := make([]any, 0, 4+len(s.Holders))
	args = append(args, s.Stock, s.BeginTime.UnixMilli(), s.EndTime.UnixMilli(), flag(replace), "")
	for _, u := range s.Holders {
		args = append(args, u)
	}
	n, err := seckillLoadScript.Run(ctx, g.client, []string{k.stock, k.users, k.window, k.gen}, args...).Int64()
	if err != nil {
		return false, fmt.Errorf("load sale %d: %w", s.VoucherID, err)
	}
	return n == 1, nil
}

// Pending implements seckill.StockGate: one HGET per shard, all in one pipeline — a
// fixed cost whatever the number of sales.
func (g *Gate) Pending(ctx context.Context, orderID int64) (seckill.Reservation, bool, error) {
	field := strconv.FormatInt(orderID, 10)
	cmds := make([]*goredis.StringCmd, g.cfg.Shards)
	_, err := g.client.Pipelined(ctx, func(p goredis.Pipeliner) error {
		for k := range cmds {
			cmds[k] = p.HGet(ctx, pendingKey(k), field)
		}
		return nil
	})
	if err != nil && !errors.Is(err, goredis.Nil) {
		return seckill.Reservation{}, false, fmt.Errorf("look up reservation %d: %w", orderID, err)
	}
	for _, c := range cmds {
		v, err := c.Result()
		if errors.Is(err, goredis.Nil) {
			continue
		}
		if err != nil {
			return seckill.Reservation{}, false, fmt.Errorf("look up reservation %d: %w", orderID, err)
		}
		vid, rest, _ := strings.Cut(v, ":")
		voucherID, err := strconv.ParseInt(vid, 10, 64)
		if err != nil {
			continue
		}
		if r, ok := parseReservation(voucherID, orderID, rest); ok {
			return r, true, nil
		}
	}
	return seckill.Reservation{}, false, nil
}

func parseReservation(voucherID, orderID int64, v string) (seckill.Reservation, bool) {
	user, at, ok := strings.Cut(v, ":")
	uid, err1 := strconv.ParseInt(user, 10, 64)
	ms, err2 := strconv.ParseInt(at, 10, 64)
	if !ok || err1 != nil || err2 != nil {
		return seckill.Reservation{}, false
	}
	return seckill.Reservation{OrderID: orderID, UserID: uid, VoucherID: voucherID, At: time.UnixMilli(ms)}, true
}

// scanHash calls fn for each entry of a reservation hash whose field is an order id.
func (g *Gate) scanHash(ctx context.Context, key string, fn func(orderID int64, value string)) error {
	iter := g.client.HScan(ctx, key, 0, "", 500).Iterator()
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

// Reservations implements seckill.StockGate: it scans each bucket's shard hash for the
// sale's reservations (and the sale's legacy hash).
func (g *Gate) Reservations(ctx context.Context, voucherID int64) ([]seckill.Reservation, error) {
	n, err := g.buckets(ctx, voucherID, 0)
	if err != nil {
		return nil, fmt.Errorf("list reservations of voucher %d: %w", voucherID, err)
	}
	var out []seckill.Reservation
	for b := range n {
		rs, err := g.reservationsKeys(ctx, voucherID, g.bucketKeys(voucherID, b))
		if err != nil {
			return nil, err
		}
		out = append(out, rs...)
	}
	return out, nil
}

// reservationsKeys lists the reservations of the sale (or of one bucket) on its shard.
func (g *Gate) reservationsKeys(ctx context.Context, voucherID int64, k saleKeys) ([]seckill.Reservation, error) {
	var out []seckill.Reservation
	for _, key := range []string{k.pending, k.legacy} {
		err := g.scanHash(ctx, key, func(id int64, v string) {
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

// ReturnUnits implements orders.UnitReturner with seckill_return.lua, each unit to its
// user's bucket: a per-bucket set of the orders whose unit came back makes a second call
// (or a retried one) return nothing, as a user's bucket never changes. The set lives as
// long as the sale's other keys.
func (g *Gate) ReturnUnits(ctx context.Context, voucherID int64, units []orders.ReturnedUnit, freeSlot bool) (int, error) {
	if len(units) == 0 {
		return 0, nil
	}
	n, err := g.buckets(ctx, voucherID, 0)
	if err != nil {
		return 0, fmt.Errorf("return %d units to sale %d: %w", len(units), voucherID, err)
	}
	byBucket := make([][]any, n)
	for _, u := range units {
		b := bucketOf(u.UserID, n)
		byBucket[b] = append(byBucket[b], strconv.FormatInt(u.OrderID, 10), strconv.FormatInt(u.UserID, 10))
	}
	total := 0
	for b, args := range byBucket {
		if len(args) == 0 {
			continue
		}
		k := g.bucketKeys(voucherID, b)
		got, err := seckillReturnScript.Run(ctx, g.client, []string{k.stock, k.users, k.returned(), k.gen}, append([]any{flag(freeSlot)}, args...)...).Int()
		if err != nil {
			return total, fmt.Errorf("return %d units to sale %d: %w", len(units), voucherID, err)
		}
		total += got
	}
	return total, nil
}

// PendingCount implements orders.SaleGauge: it counts the sale's reservations (a scan
// of its shard's reservations, which hold only claims whose orders are not written yet).
func (g *Gate) PendingCount(ctx context.Context, voucherID int64) (int64, error) {
	rs, err := g.Reservations(ctx, voucherID)
	return int64(len(rs)), err
}

// PendingOfUser implements seckill.StockGate by scanning every shard's reservations for
// the user's.
func (g *Gate) PendingOfUser(ctx context.Context, userID int64) ([]seckill.Reservation, error) {
	var out []seckill.Reservation
	user := strconv.FormatInt(userID, 10)
	for k := range g.cfg.Shards {
		err := g.scanHash(ctx, pendingKey(k), func(id int64, v string) {
			vid, rest, _ := strings.Cut(v, ":")
			voucherID, err := strconv.ParseInt(vid, 10, 64)
			if err != nil || !strings.HasPrefix(rest, user+":") {
				return
			}
			if r, ok := parseReservation(voucherID, id, rest); ok {
				out = append(out, r)
			}
		})
		if err != nil {
			return nil, fmt.Errorf("list reservations of user %d: %w", userID, err)
		}
	}
	slices.SortFunc(out, func(a, b seckill.Reservation) int { return cmp.Compare(b.OrderID, a.OrderID) })
	return out, nil
}

// Stock implements seckill.StockGate: the sum of the buckets' stock (units in flight
// between two buckets left out); the sale is loaded when every bucket is.
func (g *Gate) Stock(ctx context.Context, voucherID int64) (int64, bool, error) {
	n, err := g.buckets(ctx, voucherID, 0)
	if err != nil {
		return 0, false, fmt.Errorf("read stock of voucher %d: %w", voucherID, err)
	}
	cmds := make([]*goredis.StringCmd, n)
	_, err = g.client.Pipelined(ctx, func(p goredis.Pipeliner) error {
		for b := range n {
			cmds[b] = p.Get(ctx, g.bucketKeys(voucherID, b).stock)
		}
		return nil
	})
	if err != nil && !errors.Is(err, goredis.Nil) {
		return 0, false, fmt.Errorf("read stock of voucher %d: %w", voucherID, err)
	}
	var sum int64
	for _, c := range cmds {
		v, err := c.Int64()
		if errors.Is(err, goredis.Nil) {
			return 0, false, nil
		}
		if err != nil {
			return 0, false, fmt.Errorf("read stock of voucher %d: %w", voucherID, err)
		}
		sum += v
	}
	return sum, true, nil
}

// Holders implements seckill.StockGate: the union of the buckets' holders (each user is
// in one bucket).
func (g *Gate) Holders(ctx context.Context, voucherID int64) ([]int64, error) {
	n, err := g.buckets(ctx, voucherID, 0)
	if err != nil {
		return nil, fmt.Errorf("list holders of voucher %d: %w", voucherID, err)
	}
	cmds := make([]*goredis.StringSliceCmd, n)
	_, err = g.client.Pipelined(ctx, func(p goredis.Pipeliner) error {
		for b := range n {
			cmds[b] = p.SMembers(ctx, g.bucketKeys(voucherID, b).users)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list holders of voucher %d: %w", voucherID, err)
	}
	var out []int64
	for _, c := range cmds {
		for _, m := range c.Val() {
			if id, err := strconv.ParseInt(m, 10, 64); err == nil {
				out = append(out, id)
			}
		}
	}
	return out, nil
}

// SetWindow implements seckill.StockGate, on every bucket.
func (g *Gate) SetWindow(ctx context.Context, voucherID int64, begin, end time.Time) error {
	n, err := g.buckets(ctx, voucherID, 0)
	if err == nil {
		_, err = g.client.Pipelined(ctx, func(p goredis.Pipeliner) error {
			for b := range n {
				p.HSet(ctx, g.bucketKeys(voucherID, b).window, "begin", begin.UnixMilli(), "end", end.UnixMilli())
			}
			return nil
		})
	}
	if err != nil {
		return fmt.Errorf("set window of sale %d: %w", voucherID, err)
	}
	return nil
}

// Snapshot implements seckill.StockGate: one MULTI of reads on the sale's keys (the
// shard's reservation hash is read whole and filtered here).
func (g *Gate) Snapshot(ctx context.Context, voucherID int64) (seckill.GateSnapshot, error) {
	if n, err := g.buckets(ctx, voucherID, 0); err != nil {
		return seckill.GateSnapshot{}, fmt.Errorf("read sale %d: %w", voucherID, err)
	} else if n > 1 {
		return g.snapshotSplit(ctx, voucherID, n)
	}
	snap, _, err := g.snapshotKeys(ctx, voucherID, g.keys(voucherID), false)
	return snap, err
}

// snapshotKeys reads the sale (or one bucket of it) in one MULTI; with meta it also reads
// the bucket's transfer counters and returns out - in.
func (g *Gate) snapshotKeys(ctx context.Context, voucherID int64, k saleKeys, meta bool) (seckill.GateSnapshot, int64, error) {
	var (
		gen, stock      *goredis.StringCmd
		pending, legacy *goredis.MapStringStringCmd
		users           *goredis.StringSliceCmd
		moved           *goredis.SliceCmd
	)
	_, err := g.client.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		gen = p.Get(ctx, k.gen)
		stock = p.Get(ctx, k.stock)
		pending = p.HGetAll(ctx, k.pending)
		legacy = p.HGetAll(ctx, k.legacy)
		users = p.SMembers(ctx, k.users)
		if meta {
			moved = p.HMGet(ctx, k.meta(), "out", "in")
		}
		return nil
	})
	if err != nil && !errors.Is(err, goredis.Nil) {
		return seckill.GateSnapshot{}, 0, fmt.Errorf("read sale %d: %w", voucherID, err)
	}
	var snap seckill.GateSnapshot
	if snap.Version, err = gen.Int64(); err != nil && !errors.Is(err, goredis.Nil) {
		return seckill.GateSnapshot{}, 0, fmt.Errorf("read sale %d: version: %w", voucherID, err)
	}
	switch n, err := stock.Int64(); {
	case errors.Is(err, goredis.Nil):
		return snap, 0, nil
	case err != nil:
		return seckill.GateSnapshot{}, 0, fmt.Errorf("read sale %d: stock: %w", voucherID, err)
	default:
		snap.Loaded, snap.Stock = true, n
	}
	var out int64
	if moved != nil {
		vals := moved.Val()
		out = parseCount(vals, 0) - parseCount(vals, 1)
	}
	for field, v := range pending.Val() {
		vid, rest, _ := strings.Cut(v, ":")
		if vid != k.voucher {
			continue
		}
		if id, err := strconv.ParseInt(field, 10, 64); err == nil {
			if r, ok := parseReservation(voucherID, id, rest); ok {
				snap.Reservations = append(snap.Reservations, r)
			}
		}
	}
	for field, v := range legacy.Val() {
		if id, err := strconv.ParseInt(field, 10, 64); err == nil {
			if r, ok := parseReservation(voucherID, id, v); ok {
				snap.Reservations = append(snap.Reservations, r)
			}
		}
	}
	for _, m := range users.Val() {
		if id, err := strconv.ParseInt(m, 10, 64); err == nil {
			snap.Holders = append(snap.Holders, id)
		}
	}
	return snap, out, nil
}

// Repair implements seckill.StockGate with seckill_repair.lua.
func (g *Gate) Repair(ctx context.Context, r seckill.GateRepair) (bool, error) {
	if n, err := g.buckets(ctx, r.VoucherID, 0); err != nil {
		return false, fmt.Errorf("repair sale %d: %w", r.VoucherID, err)
	} else if n > 1 {
		return g.repairSplit(ctx, r, n)
	}
	return g.repairKeys(ctx, g.keys(r.VoucherID), r.VoucherID, r.Version, r.StockDelta, r.Remove, r.AddHolders, r.RemoveHolders)
}

// repairKeys runs seckill_repair.lua on the sale's (or one bucket's) keys.
func (g *Gate) repairKeys(ctx context.Context, k saleKeys, voucherID, version, delta int64, remove, addHolders, removeHolders []int64) (bool, error) {
	args := make([]any, 0, 6+len(remove)+len(addHolders)+len(removeHolders))
	args = append(args, strconv.FormatInt(version, 10), delta, k.voucher, len(remove))
	for _, id := range remove {
		args = append(args, strconv.FormatInt(id, 10))
	}
	args = append(args, len(addHolders))
	for _, u := range addHolders {
		args = append(args, u)
	}
	args = append(args, len(removeHolders))
	for _, u := range removeHolders {
		args = append(args, u)
	}
	n, err := seckillRepairScript.Run(ctx, g.client, []string{k.stock, k.users, k.pending, k.legacy, k.gen}, args...).Int64()
	if err != nil {
		return false, fmt.Errorf("repair sale %d: %w", voucherID, err)
	}
	return n == 1, nil
}
