package redis

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strconv"
	"strings"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/internal/app/seckill"
)

var (
	//go:embed lua/seckill_repair.lua
	seckillRepairLua    string
	seckillRepairScript = goredis.NewScript(seckillRepairLua)
)

// GateInspector is the SaleGate's part that reads a sale's state and repairs it
// (seckill.SaleStock): the audit, the drift check, the sold-out board and the
// sale's live numbers read through it.
type GateInspector struct {
	ks *saleKeyspace
}

// Reservations implements seckill.SaleStock: it scans each bucket's shard hash for
// the sale's reservations (and the sale's legacy hash).
func (in *GateInspector) Reservations(ctx context.Context, voucherID int64) ([]seckill.Reservation, error) {
	return in.ks.reservations(ctx, voucherID)
}

// Stock implements seckill.SaleStock: the sum of the buckets' stock (units in flight
// between two buckets left out); the sale is loaded when every bucket is.
func (in *GateInspector) Stock(ctx context.Context, voucherID int64) (int64, bool, error) {
	n, err := in.ks.buckets(ctx, voucherID, 0)
	if err != nil {
		return 0, false, fmt.Errorf("read stock of voucher %d: %w", voucherID, err)
	}
	cmds := make([]*goredis.StringCmd, n)
	_, err = in.ks.client.Pipelined(ctx, func(p goredis.Pipeliner) error {
		for b := range n {
			cmds[b] = p.Get(ctx, in.ks.bucketKeys(voucherID, b).stock)
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

// Stocks implements seckill.SaleStock: Stock of every sale, all buckets of all sales
// read in one pipeline.
func (in *GateInspector) Stocks(ctx context.Context, sales []seckill.SaleRef) (map[int64]int64, error) {
	out := make(map[int64]int64, len(sales))
	if len(sales) == 0 {
		return out, nil
	}
	cmds := make([][]*goredis.StringCmd, len(sales))
	for i, s := range sales {
		n, err := in.ks.buckets(ctx, s.VoucherID, s.Buckets)
		if err != nil {
			return nil, fmt.Errorf("read stock of voucher %d: %w", s.VoucherID, err)
		}
		cmds[i] = make([]*goredis.StringCmd, n)
	}
	_, err := in.ks.client.Pipelined(ctx, func(p goredis.Pipeliner) error {
		for i, s := range sales {
			for b := range cmds[i] {
				cmds[i][b] = p.Get(ctx, in.ks.bucketKeys(s.VoucherID, b).stock)
			}
		}
		return nil
	})
	if err != nil && !errors.Is(err, goredis.Nil) {
		return nil, fmt.Errorf("read stock of %d sales: %w", len(sales), err)
	}
sales:
	for i, s := range sales {
		var sum int64
		for _, c := range cmds[i] {
			v, err := c.Int64()
			if errors.Is(err, goredis.Nil) {
				continue sales // not loaded
			}
			if err != nil {
				return nil, fmt.Errorf("read stock of voucher %d: %w", s.VoucherID, err)
			}
			sum += v
		}
		out[s.VoucherID] = sum
	}
	return out, nil
}

// Holders implements seckill.SaleStock: the union of the buckets' holders (each user is
// in one bucket).
func (in *GateInspector) Holders(ctx context.Context, voucherID int64) ([]int64, error) {
	n, err := in.ks.buckets(ctx, voucherID, 0)
	if err != nil {
		return nil, fmt.Errorf("list holders of voucher %d: %w", voucherID, err)
	}
	cmds := make([]*goredis.StringSliceCmd, n)
	_, err = in.ks.client.Pipelined(ctx, func(p goredis.Pipeliner) error {
		for b := range n {
			cmds[b] = p.SMembers(ctx, in.ks.bucketKeys(voucherID, b).users)
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

// Snapshot implements seckill.SaleStock: one MULTI of reads on the sale's keys (the
// shard's reservation hash is read whole and filtered here).
func (in *GateInspector) Snapshot(ctx context.Context, voucherID int64) (seckill.GateSnapshot, error) {
	if n, err := in.ks.buckets(ctx, voucherID, 0); err != nil {
		return seckill.GateSnapshot{}, fmt.Errorf("read sale %d: %w", voucherID, err)
	} else if n > 1 {
		return in.snapshotSplit(ctx, voucherID, n)
	}
	snap, _, err := in.snapshotKeys(ctx, voucherID, in.ks.keys(voucherID), false)
	return snap, err
}

// snapshotKeys reads the sale (or one bucket of it) in one MULTI; with meta it also reads
// the bucket's transfer counters and returns out - in.
func (in *GateInspector) snapshotKeys(ctx context.Context, voucherID int64, k saleKeys, meta bool) (seckill.GateSnapshot, int64, error) {
	var (
		gen, stock      *goredis.StringCmd
		pending, legacy *goredis.MapStringStringCmd
		users           *goredis.StringSliceCmd
		moved           *goredis.SliceCmd
	)
	_, err := in.ks.client.TxPipelined(ctx, func(p goredis.Pipeliner) error {
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

// Repair implements seckill.SaleStock with seckill_repair.lua.
func (in *GateInspector) Repair(ctx context.Context, r seckill.GateRepair) (bool, error) {
	if n, err := in.ks.buckets(ctx, r.VoucherID, 0); err != nil {
		return false, fmt.Errorf("repair sale %d: %w", r.VoucherID, err)
	} else if n > 1 {
		return in.repairSplit(ctx, r, n)
	}
	return in.repairKeys(ctx, in.ks.keys(r.VoucherID), r.VoucherID, r.Version, r.StockDelta, r.Remove, r.AddHolders, r.RemoveHolders)
}

// repairKeys runs seckill_repair.lua on the sale's (or one bucket's) keys.
func (in *GateInspector) repairKeys(ctx context.Context, k saleKeys, voucherID, version, delta int64, remove, addHolders, removeHolders []int64) (bool, error) {
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
	n, err := seckillRepairScript.Run(ctx, in.ks.client, []string{k.stock, k.users, k.pending, k.legacy, k.gen}, args...).Int64()
	if err != nil {
		return false, fmt.Errorf("repair sale %d: %w", voucherID, err)
	}
	return n == 1, nil
}

// snapshotSplit reads the buckets one at a time, each in one MULTI. Its stock is the sum
// of each bucket's stock + out - in, which transfers leave unchanged however they
// interleave with the reads, so units in flight between two buckets are counted once.
// Version is the sum of the buckets' versions, Versions each one's; the sale is loaded
// when every bucket is.
func (in *GateInspector) snapshotSplit(ctx context.Context, voucherID int64, n int) (seckill.GateSnapshot, error) {
	out := seckill.GateSnapshot{Loaded: true, Versions: make([]int64, n)}
	for b := range n {
		snap, moved, err := in.snapshotKeys(ctx, voucherID, in.ks.bucketKeys(voucherID, b), true)
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
func (in *GateInspector) repairSplit(ctx context.Context, r seckill.GateRepair, n int) (bool, error) {
	if len(r.Versions) != n {
		return false, fmt.Errorf("repair sale %d: %d versions for %d buckets", r.VoucherID, len(r.Versions), n)
	}
	// Refused whole when a bucket's version already moved; each step checks again.
	gens := make([]*goredis.StringCmd, n)
	if _, err := in.ks.client.Pipelined(ctx, func(p goredis.Pipeliner) error {
		for b := range n {
			gens[b] = p.Get(ctx, in.ks.bucketKeys(r.VoucherID, b).gen)
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
		if _, err := in.ks.client.Pipelined(ctx, func(p goredis.Pipeliner) error {
			for b := range n {
				stocks[b] = p.Get(ctx, in.ks.bucketKeys(r.VoucherID, b).stock)
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
		ok, err := in.repairKeys(ctx, in.ks.bucketKeys(r.VoucherID, b), r.VoucherID, r.Versions[b], deltas[b], r.Remove, add[b], remove[b])
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
