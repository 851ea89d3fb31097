package seckill

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// WarmupLocks lets one node of many warm a sale up.
type WarmupLocks interface {
	// TryWarmup takes the right to warm sale voucherID up for ttl; false when another
	// node holds it.
	TryWarmup(ctx context.Context, voucherID int64, ttl time.Duration) (bool, error)
}

// warmupLockTTL is how long a node holds the right to warm one sale up: long enough for
// the database reads and the load, short enough that another node takes over soon when
// the first one dies in between.
const warmupLockTTL = 30 * time.Second

// warmupRescan is how often the warm-up loop lists the sales again: a sale created on
// another node joins the schedule within this time (the lead, SALE_WARMUP_BEFORE,
// is far longer by default).
const warmupRescan = time.Minute

// warmupAt is when sale v is loaded into the gate: WarmupBefore before it begins
// (WarmupBefore 0: from its creation on).
func (s *core) warmupAt(v domain.Voucher) time.Time {
	if s.cfg.WarmupBefore <= 0 {
		return time.Time{}
	}
	return v.FlashSale.BeginTime.Add(-s.cfg.WarmupBefore)
}

// due says whether sale v should be in the gate now: not ended, and its warm-up time
// reached.
func (s *core) due(v domain.Voucher, now time.Time) bool {
	return v.FlashSale != nil && v.FlashSale.EndTime.After(now) && !now.Before(s.warmupAt(v))
}

// Warmup loads upcoming sales into the gate SALE_WARMUP_BEFORE before they begin, so
// that the first claims of a sale find it there, without holding sales that begin days
// later in Redis. Several nodes may run it: one of them (WarmupLocks) loads a sale, and
// loading is idempotent besides.
type Warmup struct{ c *core }

// WarmupStatus is where a sale stands with its warm-up, for ADMINs.
type WarmupStatus struct {
	// At is when the sale is (or was) loaded into the gate: SALE_WARMUP_BEFORE before
	// it begins (zero: from its creation on).
	At time.Time
	// Loaded says whether the gate holds the sale now.
	Loaded bool
}

// StatusOf reads the warm-up of sale voucherID for a: ok is false for anyone but an
// ADMIN, and for an id that is no flash sale.
func (w *Warmup) StatusOf(ctx context.Context, a domain.Actor, voucherID int64) (WarmupStatus, bool, error) {
	if a.Role != domain.RoleAdmin {
		return WarmupStatus{}, false, nil
	}
	v, found, err := w.c.voucher(ctx, voucherID)
	if err != nil || !found {
		return WarmupStatus{}, false, err
	}
	return w.Status(ctx, v)
}

// Status reads sale v's warm-up; ok is false for a voucher that is not a flash sale.
func (w *Warmup) Status(ctx context.Context, v domain.Voucher) (WarmupStatus, bool, error) {
	if v.FlashSale == nil {
		return WarmupStatus{}, false, nil
	}
	_, loaded, err := w.c.d.Stock.Stock(ctx, v.ID)
	if err != nil {
		return WarmupStatus{}, false, fmt.Errorf("read sale %d in the gate: %w", v.ID, err)
	}
	return WarmupStatus{At: w.c.warmupAt(v), Loaded: loaded}, true, nil
}

// Pass loads every sale whose warm-up time has come and that the gate lacks, and
// returns how many it loaded and when the next sale is due (zero: none upcoming).
func (w *Warmup) Pass(ctx context.Context) (loaded int, next time.Time, err error) {
	now := w.c.now()
	sales, err := w.c.d.Vouchers.FlashSalesEndingAfter(ctx, now)
	if err != nil {
		return 0, time.Time{}, fmt.Errorf("list sales: %w", err)
	}
	var errs []error
	for _, v := range sales {
		if !w.c.due(v, now) {
			if at := w.c.warmupAt(v); next.IsZero() || at.Before(next) {
				next = at
			}
			continue
		}
		if _, held, err := w.c.d.Stock.Stock(ctx, v.ID); err != nil {
			errs = append(errs, err)
			continue
		} else if held {
			continue
		}
		if w.c.d.WarmupLocks != nil {
			mine, err := w.c.d.WarmupLocks.TryWarmup(ctx, v.ID, warmupLockTTL)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if !mine {
				continue // another node warms it up
			}
		}
		ok, err := w.c.loadSale(ctx, v, false)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if ok {
			loaded++
			w.c.log.Info("flash sale warmed up", slog.Int64("voucher_id", v.ID), slog.Time("begins", v.FlashSale.BeginTime))
		}
	}
	return loaded, next, errors.Join(errs...)
}

// Run warms sales up until ctx ends: a pass now, then one when the next sale is due or
// after warmupRescan, whichever comes first.
func (w *Warmup) Run(ctx context.Context) {
	for {
		_, next, err := w.Pass(ctx)
		if err != nil && ctx.Err() == nil {
			w.c.log.Warn("sale warm-up incomplete", slog.Any("error", err))
		}
		wait := warmupRescan
		if !next.IsZero() {
			wait = min(wait, max(next.Sub(w.c.now()), 0))
		}
		if err != nil {
			wait = min(wait, 5*time.Second)
		}
		select {
		case <-ctx.Done():
			return
		case <-w.c.wait(wait):
		}
	}
}
