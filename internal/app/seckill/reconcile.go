package seckill

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// ReconcileConfig tunes the repairs of Reconcile.
type ReconcileConfig struct {
	// RepublishAfter is how old a reservation without an order gets before its claim is
	// published again (the consumer is idempotent, so a copy does no harm).
	RepublishAfter time.Duration
	// FailAfter is how old it gets before the claim is given up: the order is recorded
	// FAILED and its stock and the user's slot go back.
	FailAfter time.Duration
	// Lookback is how long after a sale's end its reservations are still repaired.
	Lookback time.Duration
	// TransferAfter is how old a move of units between the buckets of a split sale gets
	// before the reconciler finishes it (its node died halfway). Default 5 s.
	TransferAfter time.Duration
}

// ReconcileReport counts what one pass repaired.
type ReconcileReport struct {
	SalesLoaded int
	Settled     int
	Republished int
	Failed      int
	Released    int
	// StockRepaired counts the sales whose Redis stock disagreed with the database's.
	StockRepaired int
	// HoldersRepaired counts the users added to or removed from holder sets.
	HoldersRepaired int
	// Busy counts the sales whose repair was given up for this pass because their
	// reservations kept being dropped (or other nodes repaired them) meanwhile.
	Busy int
	// TransfersCompleted counts moves of units between a split sale's buckets that the
	// reconciler finished for a node that did not.
	TransfersCompleted int
}

// Reconcile makes Redis and the database agree again, for every sale that is on or
// ended recently:
//   - a sale Redis does not hold (Redis restarted without persistence, or was flushed)
//     is rebuilt from the database: its stock and its holders;
//   - a reservation whose order exists is settled (CREATED) or released (FAILED);
//   - a reservation older than RepublishAfter without an order has its claim published
//     again; one older than FailAfter is given up, its order FAILED and its stock
//     returned;
//   - the drift of a live sale is repaired (see repairDrift): afterwards Redis stock =
//     database stock − reservations still waiting for their orders, and the holders are
//     exactly the users with live orders plus those with pending reservations.
//
// It is safe to run on several nodes at once and while claims and orders are written:
// every step is idempotent, and a drift repair applies only if no reservation of the
// sale was dropped (and no other repair applied) since it was computed.
func (rec *Reconciler) Reconcile(ctx context.Context, rc ReconcileConfig) (ReconcileReport, error) {
	var rep ReconcileReport
	now := rec.c.now()
	sales, err := rec.c.d.Vouchers.FlashSalesEndingAfter(ctx, now.Add(-rc.Lookback))
	if err != nil {
		return rep, fmt.Errorf("list sales: %w", err)
	}
	var errs []error
	for _, v := range sales {
		if rec.c.due(v, now) {
			loaded, err := rec.c.loadSale(ctx, v, false)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if loaded {
				rep.SalesLoaded++
			}
		}
		if err := rec.repairReservations(ctx, v.ID, now, rc, &rep); err != nil {
			errs = append(errs, err)
			continue
		}
		if v.FlashSale.EndTime.After(now) {
			transferAfter := rc.TransferAfter
			if transferAfter <= 0 {
				transferAfter = 5 * time.Second
			}
			n, err := rec.c.d.Stock.CompleteTransfers(ctx, v.ID, now.Add(-transferAfter))
			rep.TransfersCompleted += n
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if err := rec.repairDrift(ctx, v.ID, &rep); err != nil {
				errs = append(errs, err)
			}
		}
	}
	rec.c.d.Observer.Reconciled(rep)
	return rep, errors.Join(errs...)
}

func (rec *Reconciler) repairReservations(ctx context.Context, voucherID int64, now time.Time, rc ReconcileConfig, rep *ReconcileReport) error {
	reservations, err := rec.c.d.Stock.Reservations(ctx, voucherID)
	if err != nil {
		return err
	}
	for _, r := range reservations {
		age := now.Sub(r.At)
		if age < rc.RepublishAfter {
			continue
		}
		claim := domain.Claim{OrderID: r.OrderID, UserID: r.UserID, VoucherID: voucherID, ClaimedAt: r.At}
		o, err := rec.c.d.Orders.Order(ctx, r.OrderID)
		switch {
		case err == nil && (o.UserID != r.UserID || o.VoucherID != voucherID):
			// The id is another claim's order (handed out twice): this claim has none,
			// and never will under this id.
			if err := rec.c.fail(ctx, claim, Release{Stock: true, Slot: true}, ReasonIDTaken); err != nil {
				return err
			}
			rep.Failed++
		case err == nil && o.Status == domain.OrderFailed:
			if n, err := rec.c.giveBack(ctx, voucherID, unitsBack{Drop: r.OrderID, User: r.UserID, Release: Release{Stock: true, Slot: true}, Line: true}); err != nil {
				return err
			} else if n > 0 {
				rep.Released++
			}
		case err == nil:
			if err := rec.c.d.Stock.Settle(ctx, voucherID, []int64{r.OrderID}); err != nil {
				return err
			}
			rep.Settled++
			rec.c.publish(ctx, o.Status, "", claim)
		case !errors.Is(err, domain.ErrNotFound):
			return fmt.Errorf("read order %d: %w", r.OrderID, err)
		case age >= rc.FailAfter:
			if err := rec.c.fail(ctx, claim, Release{Stock: true, Slot: true}, ReasonExpired); err != nil {
				return err
			}
			rep.Failed++
		default:
			if err := rec.c.d.Republisher.PublishClaim(ctx, claim); err != nil {
				return fmt.Errorf("publish claim %d again: %w", r.OrderID, err)
			}
			rep.Republished++
		}
	}
	return nil
}

// Reconciler keeps Redis and the database in step: it loads sales into Redis, repairs
// them (Reconcile, periodically in RunReconciler), and reads their bookkeeping (Audit).
type Reconciler struct{ c *core }

// RunReconciler runs Reconcile every interval until ctx ends.
func (rec *Reconciler) RunReconciler(ctx context.Context, interval time.Duration, rc ReconcileConfig) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		rep, err := rec.Reconcile(ctx, rc)
		if err != nil && ctx.Err() == nil {
			rec.c.log.Warn("reconcile pass incomplete", slog.Any("error", err))
		}
		if rep != (ReconcileReport{}) {
			rec.c.log.Info("reconciled flash sales", slog.Int("sales_loaded", rep.SalesLoaded), slog.Int("settled", rep.Settled),
				slog.Int("republished", rep.Republished), slog.Int("failed", rep.Failed), slog.Int("released", rep.Released),
				slog.Int("stock_repaired", rep.StockRepaired), slog.Int("holders_repaired", rep.HoldersRepaired),
				slog.Int("busy", rep.Busy), slog.Int("transfers_completed", rep.TransfersCompleted))
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// LoadSales puts every sale that has not ended and whose warm-up time has come
// (SALE_WARMUP_BEFORE before it begins) into Redis where Redis lacks it (at start, or
// after Redis lost its data), from the database. Sales already loaded are left alone.
func (rec *Reconciler) LoadSales(ctx context.Context) (int, error) {
	now := rec.c.now()
	sales, err := rec.c.d.Vouchers.FlashSalesEndingAfter(ctx, now)
	if err != nil {
		return 0, fmt.Errorf("list sales: %w", err)
	}
	loaded := 0
	for _, v := range sales {
		if !rec.c.due(v, now) {
			continue
		}
		ok, err := rec.c.loadSale(ctx, v, false)
		if err != nil {
			return loaded, err
		}
		if ok {
			loaded++
		}
	}
	return loaded, nil
}
