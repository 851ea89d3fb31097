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
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
)

// A claim's part of the gate is this file and lua/seckill_reserve.lua, in the order a
// claim meets them: Gate.Reserve picks the user's bucket of the sale and runs the
// script, for the claim alone (a batch of one) or coalesced with concurrent claims
// (reserveBatcher); a split sale's dry bucket borrows units from the others
// (reserveDry); the reservation is later settled or dropped (Settle, Drop) or looked up
// (Pending); saleKeyspace, last, names every key, and the loader, inspector and returns
// share it.

var (
	//go:embed lua/seckill_reserve.lua
	seckillReserveLua    string
	seckillReserveScript = goredis.NewScript(seckillReserveLua)
	//go:embed lua/seckill_drop.lua
	seckillDropLua    string
	seckillDropScript = goredis.NewScript(seckillDropLua)
)

// Gate is the claim's part of the SaleGate (seckill.SaleStock): it reserves a unit for a
// claim, drops or settles the reservation, and finds the reservations still waiting for
// their orders.
type Gate struct {
	ks *saleKeyspace
	// batcher coalesces Reserve calls (nil: one script run per call).
	batcher *reserveBatcher
	// borrows lets the claims of one dry bucket share one transfer.
	borrows singleflight.Group
}

// Reserve implements seckill.SaleStock. It is idempotent per order id: go-redis sends a
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
	buckets, err := g.ks.buckets(ctx, r.VoucherID, r.Buckets)
	if err != nil {
		return 0, 0, err
	}
	bucket := bucketOf(r.UserID, buckets)
	var (
		payload, metadata []byte
		pub               trace.Span
	)
	if g.ks.cfg.ClaimStream != nil {
		payload = claimwire.EncodeClaim(domain.Claim{OrderID: r.OrderID, UserID: r.UserID, VoucherID: r.VoucherID, ClaimedAt: r.At})
		if span != nil {
			stream := g.ks.claimStream(g.ks.bucketKeys(r.VoucherID, bucket))
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

// reserveOne runs seckill_reserve.lua for r alone (a batch of one), in the sale's
// bucket.
func (g *Gate) reserveOne(ctx context.Context, r seckill.Reservation, bucket int, payload, metadata []byte) (seckill.Verdict, int64, error) {
	call := reserveCall{r: r, bucket: bucket, payload: payload, metadata: metadata}
	keys, args := g.reserveArgs([]*reserveCall{&call})
	reply, err := seckillReserveScript.Run(ctx, g.ks.client, keys, args...).Result()
	if err != nil {
		return 0, 0, err
	}
	res, ok := reply.([]any)
	if !ok || len(res) != 2 {
		return 0, 0, fmt.Errorf("unexpected reply %v", reply)
	}
	verdict, n, ok := verdictAt(res, 0)
	if !ok {
		return 0, 0, fmt.Errorf("unexpected reply %v", reply)
	}
	return verdict, n, nil
}

// reserveArgs lays out seckill_reserve.lua's keys and arguments for calls, all on one
// bucket of one sale. The rate limit is the first call's (one service sets one limit).
func (g *Gate) reserveArgs(calls []*reserveCall) ([]string, []any) {
	first := calls[0].r
	k := g.ks.bucketKeys(first.VoucherID, calls[0].bucket)
	keys := make([]string, 0, 5+len(calls))
	keys = append(keys, k.stock, k.users, k.pending, k.window)
	if g.ks.cfg.ClaimStream != nil {
		keys = append(keys, g.ks.claimStream(k))
	}
	args := make([]any, 0, 3+5*len(calls))
	args = append(args, first.RateLimit.Max, first.RateLimit.Window.Milliseconds(), first.VoucherID)
	for _, c := range calls {
		keys = append(keys, k.prefix+"rate:"+strconv.FormatInt(c.r.UserID, 10))
		args = append(args, c.r.UserID, strconv.FormatInt(c.r.OrderID, 10), c.r.At.UnixMilli(), c.payload, c.metadata)
	}
	return keys, args
}

// verdictAt reads claim i's verdict and number from seckill_reserve.lua's reply.
func verdictAt(res []any, i int) (seckill.Verdict, int64, bool) {
	verdict, ok1 := res[2*i].(int64)
	n, ok2 := res[2*i+1].(int64)
	if !ok1 || !ok2 || verdict < 0 || verdict > int64(seckill.RateLimited) {
		return 0, 0, false
	}
	return seckill.Verdict(verdict), n, true
}

// reserveBatcher coalesces concurrent Reserve calls as Coalescing describes, and the
// calls of a batch for one sale run as one script (seckill_reserve.lua) deciding each
// claim in turn. Redis then parses one command and sets up one script run per sale
// per batch instead of one per claim, which is where its single thread spends most of a
// claim's time.
type reserveBatcher struct {
	g     *Gate
	calls *collector[*reserveCall]
}

type reserveCall struct {
	r seckill.Reservation
	// bucket is the sale's bucket the claim is decided in.
	bucket  int
	payload []byte
	// metadata is the stream entry's metadata field (the claim's trace context), or nil.
	metadata []byte
	verdict  seckill.Verdict
	// batch is how many claims the batch's script for this sale decided.
	batch int
	n     int64
	err   error
	done  chan struct{}
}

func newReserveBatcher(g *Gate, c Coalescing) *reserveBatcher {
	b := &reserveBatcher{g: g}
	b.calls = newCollector(c, b.flush)
	return b
}

// reserve queues r and waits for its verdict; batch is how many claims on the sale its
// script run decided. An error is the batch's, or ctx's: the claim may then still have
// been decided, as with any lost reply.
func (b *reserveBatcher) reserve(ctx context.Context, r seckill.Reservation, bucket int, payload, metadata []byte) (_ seckill.Verdict, _ int64, batch int, _ error) {
	if err := ctx.Err(); err != nil {
		return 0, 0, 0, err
	}
	call := &reserveCall{r: r, bucket: bucket, payload: payload, metadata: metadata, done: make(chan struct{})}
	b.calls.add(call)
	if err := await(ctx, call.done); err != nil {
		return 0, 0, 0, err
	}
	return call.verdict, call.n, call.batch, call.err
}

// saleBatch is one sale's share of a batch: one script run.
type saleBatch struct {
	calls []*reserveCall
	keys  []string
	args  []any
	cmd   *goredis.Cmd
}

// saleBucket names one bucket of one sale: a batch runs one script per saleBucket.
type saleBucket struct {
	voucher int64
	bucket  int
}

// flush runs a batch: one script per sale (per bucket of a split sale), all in one pipeline, independent of any one
// caller's context. A sale whose script Redis does not know (a restarted server) runs
// again on its own, which loads it.
func (b *reserveBatcher) flush(batch []*reserveCall) {
	ctx := context.Background()
	var sales []*saleBatch
	bySale := map[saleBucket]*saleBatch{}
	for _, call := range batch {
		key := saleBucket{call.r.VoucherID, call.bucket}
		s := bySale[key]
		if s == nil {
			s = &saleBatch{}
			bySale[key] = s
			sales = append(sales, s)
		}
		s.calls = append(s.calls, call)
	}
	hash := seckillReserveScript.Hash()
	_, _ = b.g.ks.client.Pipelined(ctx, func(p goredis.Pipeliner) error {
		for _, s := range sales {
			s.keys, s.args = b.g.reserveArgs(s.calls)
			cmdArgs := make([]any, 0, 3+len(s.keys)+len(s.args))
			cmdArgs = append(cmdArgs, "evalsha", hash, len(s.keys))
			for _, k := range s.keys {
				cmdArgs = append(cmdArgs, k)
			}
			cmdArgs = append(cmdArgs, s.args...)
			s.cmd = goredis.NewCmd(ctx, cmdArgs...)
			_ = p.Process(ctx, s.cmd)
		}
		return nil
	})
	for _, s := range sales {
		reply, err := s.cmd.Result()
		if err != nil && isNoScript(err) {
			reply, err = seckillReserveScript.Run(ctx, b.g.ks.client, s.keys, s.args...).Result()
		}
		s.settle(reply, err)
	}
}

// settle hands each call of the sale its verdict from the script's reply.
func (s *saleBatch) settle(reply any, err error) {
	res, ok := reply.([]any)
	if err == nil && (!ok || len(res) != 2*len(s.calls)) {
		err = fmt.Errorf("unexpected reply %v", reply)
	}
	for i, call := range s.calls {
		call.batch = len(s.calls)
		if err == nil {
			var ok bool
			if call.verdict, call.n, ok = verdictAt(res, i); !ok {
				call.err = fmt.Errorf("unexpected reply %v", reply)
			}
		} else {
			call.err = err
		}
		close(call.done)
	}
}

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

// Drop implements seckill.SaleStock, in whichever bucket holds the reservation (each
// bucket's shard has its own reservation hash).
func (g *Gate) Drop(ctx context.Context, voucherID, orderID int64, rel seckill.Release) (bool, error) {
	n, err := g.ks.buckets(ctx, voucherID, 0)
	if err != nil {
		return false, fmt.Errorf("drop reservation %d: %w", orderID, err)
	}
	for b := range n {
		dropped, err := g.dropKeys(ctx, g.ks.bucketKeys(voucherID, b), orderID, rel)
		if err != nil || dropped {
			return dropped, err
		}
	}
	return false, nil
}

// dropKeys runs seckill_drop.lua on the sale's (or one bucket's) keys.
func (g *Gate) dropKeys(ctx context.Context, k saleKeys, orderID int64, rel seckill.Release) (bool, error) {
	n, err := seckillDropScript.Run(ctx, g.ks.client, []string{k.stock, k.users, k.pending, k.legacy, k.gen},
		strconv.FormatInt(orderID, 10), flag(rel.Stock), flag(rel.Slot), k.voucher).Int64()
	if err != nil {
		return false, fmt.Errorf("drop reservation %d: %w", orderID, err)
	}
	return n == 1, nil
}

// Settle implements seckill.SaleStock: the reservations go from every bucket's hash (and
// the legacy hash), in one pipeline. Settling leaves the version alone: it changes
// neither stock nor holders, and a repair computed across it errs toward less stock (see
// seckill_repair.lua).
func (g *Gate) Settle(ctx context.Context, voucherID int64, orderIDs []int64) error {
	if len(orderIDs) == 0 {
		return nil
	}
	n, err := g.ks.buckets(ctx, voucherID, 0)
	if err == nil {
		fields := make([]string, len(orderIDs))
		for i, id := range orderIDs {
			fields[i] = strconv.FormatInt(id, 10)
		}
		_, err = g.ks.client.Pipelined(ctx, func(p goredis.Pipeliner) error {
			for b := range n {
				k := g.ks.bucketKeys(voucherID, b)
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

// Pending implements seckill.SaleStock: one HGET per shard, all in one pipeline — a
// fixed cost whatever the number of sales.
func (g *Gate) Pending(ctx context.Context, orderID int64) (seckill.Reservation, bool, error) {
	field := strconv.FormatInt(orderID, 10)
	cmds := make([]*goredis.StringCmd, g.ks.cfg.Shards)
	_, err := g.ks.client.Pipelined(ctx, func(p goredis.Pipeliner) error {
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

// PendingOfUser implements seckill.SaleStock by scanning every shard's reservations for
// the user's.
func (g *Gate) PendingOfUser(ctx context.Context, userID int64) ([]seckill.Reservation, error) {
	var out []seckill.Reservation
	user := strconv.FormatInt(userID, 10)
	for k := range g.ks.cfg.Shards {
		err := g.ks.scanHash(ctx, pendingKey(k), func(id int64, v string) {
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
