package seckill

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"

	"github.com/dealspot/dealspot/internal/domain"
)

// driftAttempts is how often one pass computes a sale's repair again when a reservation
// of the sale was dropped (or the sale loaded or repaired) meanwhile.
const driftAttempts = 3

// maxDriftLookups bounds the order look-ups of one sale's repair: the oldest pending
// reservations are looked up, the others are taken as still waiting for their orders
// (which errs toward less stock in Redis, never more).
const maxDriftLookups = 2000

// repairDrift makes a live sale's Redis state agree with the database: stock = database
// stock − reservations still waiting for their orders; holders = users with live orders
// ∪ users with pending reservations; reservations whose orders exist are removed.
//
// It reads the database stock, then a snapshot of the sale in Redis (with the version
// drops, loads and repairs bump), then the database again, and applies the difference
// in one atomic step that is refused if the version moved. Reserve does not bump the
// version: a claim reserved after the snapshot took its unit from the stock the repair
// adjusts by a difference. Nor does settling, so repairs apply during a flood.
//
// Orders written while the pass reads can make Redis look ahead of the database by at
// most the orders written meanwhile (the database stock's fall since the first read),
// never behind it: the orders of the pending reservations are looked up before the
// stock is read again, so an order is at worst counted twice, never not at all. So
// stock is raised by what it is certainly short, and lowered by what it is certainly
// over — exactly when no order was written meanwhile. Holders are exact. Nothing is
// written when nothing drifted.
func (rec *Reconciler) repairDrift(ctx context.Context, voucherID int64, rep *ReconcileReport) error {
	for range driftAttempts {
		done, err := rec.repairDriftOnce(ctx, voucherID, rep)
		if err != nil || done {
			return err
		}
	}
	rep.Busy++
	return nil
}

func (rec *Reconciler) repairDriftOnce(ctx context.Context, voucherID int64, rep *ReconcileReport) (bool, error) {
	before, err := rec.c.d.Orders.SaleStock(ctx, voucherID)
	if err != nil {
		return false, err
	}
	snap, err := rec.c.d.Stock.Snapshot(ctx, voucherID)
	if err != nil {
		return false, err
	}
	if !snap.Loaded {
		return true, nil // loaded from the database by the next claim or pass
	}
	// The cheap comparison: every reservation taken as still waiting for its order.
	dbStock, holders, err := rec.dbView(ctx, voucherID)
	if err != nil {
		return false, err
	}
	if drift := computeDrift(snap, dbStock, max(0, before-dbStock), holders, nil); drift.none() {
		return true, nil
	}
	// Something may disagree: find the reservations whose orders exist, then read the
	// stock and the holders again (after the look-ups: see above).
	written, err := rec.writtenOrders(ctx, snap.Reservations)
	if err != nil {
		return false, err
	}
	if rec.c.waitlist() != nil {
		// The unit of a failed claim is offered to the sale's waitlist first: such
		// reservations go back through giveBack, not through the repair (which would hand
		// their units to the gate), and the repair is computed again without them.
		failed := 0
		for _, r := range snap.Reservations {
			if o, ok := written[r.OrderID]; ok && o.Status == domain.OrderFailed {
				back := unitsBack{Drop: r.OrderID, User: r.UserID, Release: Release{Stock: true, Slot: true}, Line: true}
				if _, err := rec.c.giveBack(ctx, voucherID, back); err != nil {
					return false, err
				}
				failed++
			}
		}
		if failed > 0 {
			rep.Released += failed
			return false, nil
		}
	}
	if dbStock, holders, err = rec.dbView(ctx, voucherID); err != nil {
		return false, err
	}
	if dbStock > before {
		return false, nil // the sale's stock was raised meanwhile: read again
	}
	drift := computeDrift(snap, dbStock, before-dbStock, holders, written)
	if drift.none() {
		return true, nil
	}
	drift.VoucherID = voucherID
	applied, err := rec.c.d.Stock.Repair(ctx, drift.GateRepair)
	if err != nil || !applied {
		return false, err
	}
	if drift.StockDelta != 0 {
		rep.StockRepaired++
	}
	rep.HoldersRepaired += len(drift.AddHolders) + len(drift.RemoveHolders)
	rep.Settled += drift.settled
	rep.Released += drift.released
	rec.c.log.Warn("repaired a flash sale's drift between redis and the database", slog.Int64("voucher_id", voucherID),
		slog.Int64("redis_stock", snap.Stock), slog.Int64("stock_delta", drift.StockDelta),
		slog.Int("holders_added", len(drift.AddHolders)), slog.Int("holders_removed", len(drift.RemoveHolders)),
		slog.Int("reservations_removed", len(drift.Remove)))
	if drift.StockDelta > 0 {
		rec.c.stockBack(ctx, voucherID)
	}
	for _, r := range snap.Reservations {
		if o, ok := written[r.OrderID]; ok {
			rec.c.publish(ctx, o.Status, "", domain.Claim{OrderID: r.OrderID, UserID: r.UserID, VoucherID: voucherID, ClaimedAt: r.At})
		}
	}
	return true, nil
}

// dbView reads the sale's stock and live holders from the database.
func (rec *Reconciler) dbView(ctx context.Context, voucherID int64) (int64, []int64, error) {
	stock, err := rec.c.d.Orders.SaleStock(ctx, voucherID)
	if err != nil {
		return 0, nil, err
	}
	holders, err := rec.c.d.Orders.LiveHolders(ctx, voucherID, rec.c.cfg.KeepSlotAfterCancel)
	if err != nil {
		return 0, nil, err
	}
	return stock, holders, nil
}

// writtenOrders looks up the orders of the oldest reservations (up to maxDriftLookups);
// the result holds those that exist and belong to their reservation's user.
func (rec *Reconciler) writtenOrders(ctx context.Context, rs []Reservation) (map[int64]domain.VoucherOrder, error) {
	rs = slices.Clone(rs)
	slices.SortFunc(rs, func(a, b Reservation) int { return a.At.Compare(b.At) })
	out := map[int64]domain.VoucherOrder{}
	for _, r := range rs[:min(len(rs), maxDriftLookups)] {
		o, err := rec.c.d.Orders.Order(ctx, r.OrderID)
		switch {
		case errors.Is(err, domain.ErrNotFound):
		case err != nil:
			return nil, fmt.Errorf("read order %d: %w", r.OrderID, err)
		case o.UserID == r.UserID && o.VoucherID == r.VoucherID:
			out[r.OrderID] = o
		}
	}
	return out, nil
}

// drift is a computed repair and what it settles.
type drift struct {
	GateRepair
	settled, released int
}

func (d drift) none() bool {
	return d.StockDelta == 0 && len(d.Remove) == 0 && len(d.AddHolders) == 0 && len(d.RemoveHolders) == 0
}

// computeDrift compares a snapshot with the database's view. written are the pending
// reservations whose orders exist; every other reservation is taken as still waiting.
// slack is how many orders may have been written while the view was read: Redis may
// look that much more ahead of the database than it is, so stock is lowered only by
// what exceeds it.
func computeDrift(snap GateSnapshot, dbStock, slack int64, dbHolders []int64, written map[int64]domain.VoucherOrder) drift {
	d := drift{GateRepair: GateRepair{Version: snap.Version, Versions: snap.Versions}}
	want := make(map[int64]bool, len(dbHolders)+len(snap.Reservations))
	for _, u := range dbHolders {
		want[u] = true
	}
	waiting := int64(0)
	for _, r := range snap.Reservations {
		o, ok := written[r.OrderID]
		switch {
		case !ok:
			waiting++
			want[r.UserID] = true
		case o.Status == domain.OrderFailed:
			d.Remove = append(d.Remove, r.OrderID)
			d.released++
		default:
			d.Remove = append(d.Remove, r.OrderID)
			d.settled++
		}
	}
	switch over := snap.Stock - (dbStock - waiting); {
	case over < 0 && snap.Stock < max(0, dbStock-waiting):
		d.StockDelta = max(0, dbStock-waiting) - snap.Stock // certainly short
	case over > slack:
		d.StockDelta = max(0, dbStock-waiting+slack) - snap.Stock // certainly over
	}
	have := make(map[int64]bool, len(snap.Holders))
	for _, u := range snap.Holders {
		have[u] = true
		if !want[u] {
			d.RemoveHolders = append(d.RemoveHolders, u)
		}
	}
	for u := range want {
		if !have[u] {
			d.AddHolders = append(d.AddHolders, u)
		}
	}
	return d
}
