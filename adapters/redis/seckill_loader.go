package redis

import (
	"context"
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/internal/app/seckill"
)

var (
	//go:embed lua/seckill_load.lua
	seckillLoadLua    string
	seckillLoadScript = goredis.NewScript(seckillLoadLua)
)

// loadLockTTL bounds how long one node's load of a split sale keeps others waiting;
// loadWait is how long they wait for it.
const (
	loadLockTTL = 10 * time.Second
	loadWait    = 5 * time.Second
)

// SaleLoader is the SaleGate's part that writes sales into Redis (seckill.SaleStock):
// loading a sale, moving its window, finishing the transfers between a split sale's
// buckets that a node left half done.
type SaleLoader struct {
	ks *saleKeyspace
}

// Load implements seckill.SaleStock.
func (l *SaleLoader) Load(ctx context.Context, s seckill.SaleState, replace bool) (bool, error) {
	if n, err := l.ks.buckets(ctx, s.VoucherID, s.Buckets); err != nil {
		return false, fmt.Errorf("load sale %d: %w", s.VoucherID, err)
	} else if n > 1 {
		return l.loadSplit(ctx, s, n, replace)
	}
	k := l.ks.keys(s.VoucherID)
	args := make([]any, 0, 4+len(s.Holders))
	args = append(args, s.Stock, s.BeginTime.UnixMilli(), s.EndTime.UnixMilli(), flag(replace), "")
	for _, u := range s.Holders {
		args = append(args, u)
	}
	n, err := seckillLoadScript.Run(ctx, l.ks.client, []string{k.stock, k.users, k.window, k.gen}, args...).Int64()
	if err != nil {
		return false, fmt.Errorf("load sale %d: %w", s.VoucherID, err)
	}
	return n == 1, nil
}

// SetWindow implements seckill.SaleStock, on every bucket.
func (l *SaleLoader) SetWindow(ctx context.Context, voucherID int64, begin, end time.Time) error {
	n, err := l.ks.buckets(ctx, voucherID, 0)
	if err == nil {
		_, err = l.ks.client.Pipelined(ctx, func(p goredis.Pipeliner) error {
			for b := range n {
				p.HSet(ctx, l.ks.bucketKeys(voucherID, b).window, "begin", begin.UnixMilli(), "end", end.UnixMilli())
			}
			return nil
		})
	}
	if err != nil {
		return fmt.Errorf("set window of sale %d: %w", voucherID, err)
	}
	return nil
}

// CompleteTransfers implements seckill.SaleStock: it finishes the transfers between a
// split sale's buckets taken before before and not known finished — a node that died
// between taking units and giving them strands them until then.
func (l *SaleLoader) CompleteTransfers(ctx context.Context, voucherID int64, before time.Time) (int, error) {
	n, err := l.ks.buckets(ctx, voucherID, 0)
	if err != nil || n <= 1 {
		return 0, err
	}
	done := 0
	for from := range n {
		recs, err := l.ks.client.HGetAll(ctx, l.ks.bucketKeys(voucherID, from).xfer()).Result()
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
			if _, err := l.ks.finishTransfer(ctx, voucherID, from, to, id, units, parts[3]); err != nil {
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
func (l *SaleLoader) loadSplit(ctx context.Context, s seckill.SaleState, n int, replace bool) (bool, error) {
	lock := l.ks.keys(s.VoucherID).prefix + "loading:" + strconv.FormatInt(s.VoucherID, 10)
	token := eventID()
	for {
		got, err := l.ks.client.SetNX(ctx, lock, token, loadLockTTL).Result()
		if err != nil {
			return false, fmt.Errorf("load sale %d: %w", s.VoucherID, err)
		}
		if got {
			break
		}
		// Another node is loading the sale: without replace its load is as good as ours;
		// a replacing load (the sale changed) goes on once it is done.
		if err := l.awaitLoad(ctx, lock); err != nil || !replace {
			return false, err
		}
	}
	defer func() {
		_ = cacheUnlockScript.Run(context.WithoutCancel(ctx), l.ks.client, []string{lock}, token).Err()
	}()
	if !replace {
		present, err := l.presentBuckets(ctx, s.VoucherID, n)
		if err != nil {
			return false, err
		}
		if len(present) == n {
			return false, nil
		}
		for _, b := range present {
			waiting, err := l.ks.reservationsKeys(ctx, s.VoucherID, l.ks.bucketKeys(s.VoucherID, b))
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
		k := l.ks.bucketKeys(s.VoucherID, b)
		stock := s.Stock / int64(n)
		if int64(b) < s.Stock%int64(n) {
			stock++
		}
		args := append([]any{stock, s.BeginTime.UnixMilli(), s.EndTime.UnixMilli(), "1", epoch}, holders[b]...)
		keys := []string{k.stock, k.users, k.window, k.gen, k.meta(), k.xfer(), k.given()}
		if err := seckillLoadScript.Run(ctx, l.ks.client, keys, args...).Err(); err != nil {
			return false, fmt.Errorf("load bucket %d of sale %d: %w", b, s.VoucherID, err)
		}
	}
	return true, nil
}

// awaitLoad waits until another node's load of a sale is over (its lock gone).
func (l *SaleLoader) awaitLoad(ctx context.Context, lock string) error {
	deadline := time.Now().Add(loadWait)
	for time.Now().Before(deadline) {
		n, err := l.ks.client.Exists(ctx, lock).Result()
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
func (l *SaleLoader) presentBuckets(ctx context.Context, voucherID int64, n int) ([]int, error) {
	cmds := make([]*goredis.IntCmd, n)
	_, err := l.ks.client.Pipelined(ctx, func(p goredis.Pipeliner) error {
		for b := range n {
			k := l.ks.bucketKeys(voucherID, b)
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
