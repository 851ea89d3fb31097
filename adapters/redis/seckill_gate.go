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

	goredis "github.com/redis/go-redis/v9"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	"golang.org/x/sync/singleflight"

	"github.com/dealspot/dealspot/adapters/claimwire"
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
)

// Gate is the claim's part of the SaleGate (seckill.StockGate): it reserves a unit for a
// claim, drops or settles the reservation, and finds the reservations still waiting for
// their orders.
type Gate struct {
	ks *saleKeyspace
	// batcher coalesces Reserve calls (nil: one script run per call).
	batcher *reserveBatcher
	// borrows lets the claims of one dry bucket share one transfer.
	borrows singleflight.Group
}

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

// reserveOne runs seckill_reserve.lua for r alone, in the sale's bucket.
func (g *Gate) reserveOne(ctx context.Context, r seckill.Reservation, bucket int, payload, metadata []byte) (seckill.Verdict, int64, error) {
	k := g.ks.bucketKeys(r.VoucherID, bucket)
	keys := []string{k.stock, k.users, k.pending, k.window, k.prefix + "rate:" + strconv.FormatInt(r.UserID, 10)}
	if payload != nil {
		keys = append(keys, g.ks.claimStream(k))
	}
	args := []any{r.UserID, strconv.FormatInt(r.OrderID, 10), r.At.UnixMilli(), payload, r.RateLimit.Max, r.RateLimit.Window.Milliseconds(), r.VoucherID, metadata}
	reply, err := seckillReserveScript.Run(ctx, g.ks.client, keys, args...).Result()
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

// Settle implements seckill.StockGate: the reservations go from every bucket's hash (and
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

// Pending implements seckill.StockGate: one HGET per shard, all in one pipeline — a
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

// PendingOfUser implements seckill.StockGate by scanning every shard's reservations for
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
