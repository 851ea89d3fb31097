package redis

import (
	"context"
	"fmt"
	"strconv"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/internal/app/seckill"
)

// reserveBatcher coalesces concurrent Reserve calls as Coalescing describes, and the
// calls of a batch for one sale run as one script (seckill_reserve_batch.lua) deciding
// each claim in turn. Redis then parses one command and sets up one script run per sale
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
	hash := seckillReserveBatchScript.Hash()
	_, _ = b.g.ks.client.Pipelined(ctx, func(p goredis.Pipeliner) error {
		for _, s := range sales {
			s.keys, s.args = b.g.batchArgs(s.calls)
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
			reply, err = seckillReserveBatchScript.Run(ctx, b.g.ks.client, s.keys, s.args...).Result()
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
			verdict, ok1 := res[2*i].(int64)
			n, ok2 := res[2*i+1].(int64)
			if ok1 && ok2 && verdict >= 0 && verdict <= int64(seckill.RateLimited) {
				call.verdict, call.n = seckill.Verdict(verdict), n
			} else {
				call.err = fmt.Errorf("unexpected reply %v", reply)
			}
		} else {
			call.err = err
		}
		close(call.done)
	}
}

// batchArgs lays out seckill_reserve_batch.lua's keys and arguments for calls, all on
// one bucket of one sale. The rate limit is the first call's (one service sets one
// limit).
func (g *Gate) batchArgs(calls []*reserveCall) ([]string, []any) {
	first := calls[0].r
	k := g.ks.bucketKeys(first.VoucherID, calls[0].bucket)
	streamed := 0
	keys := make([]string, 0, 5+len(calls))
	keys = append(keys, k.stock, k.users, k.pending, k.window)
	if g.ks.cfg.ClaimStream != nil {
		streamed = 1
		keys = append(keys, g.ks.claimStream(k))
	}
	args := make([]any, 0, 5+5*len(calls))
	args = append(args, len(calls), streamed, first.RateLimit.Max, first.RateLimit.Window.Milliseconds(), first.VoucherID)
	for _, c := range calls {
		keys = append(keys, k.prefix+"rate:"+strconv.FormatInt(c.r.UserID, 10))
		args = append(args, c.r.UserID, strconv.FormatInt(c.r.OrderID, 10), c.r.At.UnixMilli(), c.payload, c.metadata)
	}
	return keys, args
}
