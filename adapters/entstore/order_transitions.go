package entstore

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"entgo.io/ent/dialect"

	"github.com/dealspot/dealspot/ent/voucherorder"
	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/domain"
)

// Transition implements orders.OrderStore: one conditional UPDATE (… AND status IN
// From), so racing steps on one order have exactly one winner.
func (r *Orders) Transition(ctx context.Context, t orders.Transition) (domain.VoucherOrder, bool, error) {
	if len(t.From) == 0 {
		return domain.VoucherOrder{}, false, errors.New("transition: no status to move from")
	}
	var changed, lineHeld bool
	err := r.raw.inTx(ctx, func(tx *sql.Tx) (err error) {
		changed, lineHeld, err = r.moveTx(ctx, tx, t)
		if err == nil && !changed {
			// Nothing moved: what the transaction wrote (a redemption's key) goes too.
			return errNotMoved
		}
		return err
	})
	before := (*orders.RedeemedBefore)(nil)
	if err != nil && !errors.Is(err, errNotMoved) && !errors.As(err, &before) {
		return domain.VoucherOrder{}, false, err
	}
	o, err := r.Order(ctx, t.OrderID)
	if err != nil {
		return domain.VoucherOrder{}, false, err
	}
	if before != nil {
		before.Order = o
		return domain.VoucherOrder{}, false, before
	}
	o.LineHeld = changed && lineHeld
	return o, changed, nil
}

// errNotMoved rolls back a transition's transaction when its order did not move.
var errNotMoved = errors.New("order not moved")

// moveTx applies t in tx: the order's conditional UPDATE, then, when it won, the unit
// back to the sale's stock, the shop's sold count and the payment's move (t.Payment).
// changed is false when the order's status is not in t.From (or, redeeming, fewer than
// t.Units units are left); the caller then rolls tx back. lineHeld reports that the
// release held the order's unit for its sale's waitlist (holdForLine). A redemption
// under a request id the order recorded is a *orders.RedeemedBefore (its Order left for
// the caller).
//
// A redemption counts its units in the same UPDATE, whose condition keeps them within
// the order's quantity, and moves the order to USED only when it redeems the last ones:
// of two redemptions racing for the last unit, one wins. A redemption with a request id
// first inserts its key: of copies of one request racing, one inserts it and the others
// find it taken (on PostgreSQL they wait on the unique index until the first commits or
// rolls back; SQLite's write transactions run one at a time) and redeem nothing. The
// key is looked for before the order's status: the request that redeemed the last unit
// is answered again.
func (r *Orders) moveTx(ctx context.Context, tx *sql.Tx, t orders.Transition) (changed, lineHeld bool, err error) {
	at := t.At.UTC()
	if t.To == domain.OrderUsed && t.RequestID != "" {
		a := &args{o: r.raw}
		res, err := tx.ExecContext(ctx, "INSERT INTO redeem_requests (order_id, request_id, units, created_at) VALUES ("+
			a.p(t.OrderID)+", "+a.p(t.RequestID)+", "+a.p(t.Units)+", "+a.p(at)+") ON CONFLICT (order_id, request_id) DO NOTHING", a.vals...)
		if err != nil {
			return false, false, fmt.Errorf("record redemption %q of order %d: %w", t.RequestID, t.OrderID, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return false, false, err
		} else if n == 0 {
			b := &args{o: r.raw}
			before := &orders.RedeemedBefore{}
			if err := tx.QueryRowContext(ctx, "SELECT units FROM redeem_requests WHERE order_id = "+b.p(t.OrderID)+
				" AND request_id = "+b.p(t.RequestID), b.vals...).Scan(&before.Units); err != nil {
				return false, false, fmt.Errorf("read redemption %q of order %d: %w", t.RequestID, t.OrderID, err)
			}
			return false, false, before
		}
	}
	a := &args{o: r.raw}
	var set string
	if t.To == domain.OrderUsed {
		// The new redeemed_quantity (PostgreSQL and SQLite read the row as it was on the
		// right of every assignment), with a placeholder of its own each time it is
		// written: SQLite's "?" are positional.
		redeemed := func() string {
			if t.Units > 0 {
				return "redeemed_quantity + " + a.p(t.Units)
			}
			return "quantity" // every unit left
		}
		set = "status = CASE WHEN " + redeemed() + " >= quantity THEN " + a.p(string(t.To)) + " ELSE status END, " +
			"redeemed_quantity = " + redeemed() + ", updated_at = " + a.p(at) + ", use_time = " + a.p(at)
	} else {
		set = "status = " + a.p(string(t.To)) + ", updated_at = " + a.p(at)
	}
	switch t.To {
	case domain.OrderPaid:
		set += ", pay_time = " + a.p(at) + ", redemption_code = " + a.p(t.RedemptionCode)
	case domain.OrderCanceled:
		set += ", canceled_at = " + a.p(at) + ", cancel_reason = " + a.p(string(t.CancelReason))
	case domain.OrderRefunded:
		set += ", refund_time = " + a.p(at) + ", refund_reason = " + a.p(t.RefundReason)
	}
	q := "UPDATE voucher_orders SET " + set + " WHERE id = " + a.p(t.OrderID) + " AND status IN " + a.in(t.From)
	if t.To == domain.OrderUsed {
		q += " AND redeemed_quantity + " + a.p(max(t.Units, 1)) + " <= quantity"
	}
	q += " RETURNING voucher_id, user_id, shop_id, kind, quantity, redeemed_quantity, amount"
	var row domain.VoucherOrder
	var kind string
	err = tx.QueryRowContext(ctx, q, a.vals...).Scan(&row.VoucherID, &row.UserID, &row.ShopID, &kind, &row.Quantity, &row.RedeemedQuantity, &row.Amount)
	if errors.Is(err, sql.ErrNoRows) {
		return false, false, nil
	}
	if err != nil {
		return false, false, fmt.Errorf("move order %d to %s: %w", t.OrderID, t.To, err)
	}
	// Units of the order not redeemed: those a release gives back.
	left := int64(max(row.Quantity, 1) - row.RedeemedQuantity)
	if t.ReturnUnit && kind == string(domain.VoucherFlashSale) && !t.To.HoldsUnit() && left > 0 {
		// The first in the sale's line, if any, gets the unit here, before anyone else
		// can see it in the stock.
		lineHeld, err = holdForLine(ctx, tx, r.raw, row.VoucherID, t.OrderID, row.UserID, at, t.Line)
		if err != nil {
			return false, false, err
		}
		if lineHeld {
			left--
		}
		if left > 0 {
			if err := returnStock(ctx, tx, r.raw, row.VoucherID, left); err != nil {
				return false, false, err
			}
		}
	}
	switch t.To {
	case domain.OrderPaid:
		err = addSold(ctx, tx, r.raw, row.ShopID, row.VoucherID, int64(max(row.Quantity, 1)))
	case domain.OrderRefunded:
		err = addSold(ctx, tx, r.raw, row.ShopID, row.VoucherID, -left)
	}
	if err != nil {
		return false, false, err
	}
	if m := t.Payment; m != nil {
		// Placeholders in the order they appear: SQLite's "?" are positional.
		b := &args{o: r.raw}
		pq := "UPDATE payments SET status = " + b.p(string(m.To)) + ", updated_at = " + b.p(at)
		if m.Reason != "" {
			pq += ", refund_reason = " + b.p(m.Reason)
		}
		if m.Refund {
			pq += ", refund_amount = " + b.p(row.RefundAmount())
		}
		pq += " WHERE id = " + b.p(m.PaymentID) + " AND status IN ("
		for i, s := range m.From {
			if i > 0 {
				pq += ", "
			}
			pq += b.p(string(s))
		}
		pq += ")"
		if _, err := tx.ExecContext(ctx, pq, b.vals...); err != nil {
			return false, false, fmt.Errorf("move payment %d to %s: %w", m.PaymentID, m.To, err)
		}
	}
	return true, lineHeld, nil
}

// returnStock gives n units back to a flash sale's database stock.
func returnStock(ctx context.Context, tx *sql.Tx, raw *rawSQL, voucherID, n int64) error {
	a := &args{o: raw}
	_, err := tx.ExecContext(ctx, "UPDATE flash_sales SET stock = stock + "+a.p(n)+", updated_at = "+a.p(time.Now().UTC())+
		" WHERE id = "+a.p(voucherID), a.vals...)
	if err != nil {
		return fmt.Errorf("return %d units to sale %d: %w", n, voucherID, err)
	}
	return nil
}

// addSold moves the sold count of a shop by delta units, never below zero (a refund of
// an order paid before sold was counted): the order's shop, or its voucher's when the
// order does not name one (written before orders recorded it).
func addSold(ctx context.Context, tx execer, raw *rawSQL, shopID, voucherID, delta int64) error {
	if delta == 0 {
		return nil
	}
	a := &args{o: raw}
	q := "UPDATE shops SET sold = CASE WHEN sold + " + a.p(delta) + " < 0 THEN 0 ELSE sold + " + a.p(delta) + " END WHERE id = "
	if shopID > 0 {
		q += a.p(shopID)
	} else {
		q += "(SELECT shop_id FROM vouchers WHERE id = " + a.p(voucherID) + ")"
	}
	if _, err := tx.ExecContext(ctx, q, a.vals...); err != nil {
		return fmt.Errorf("count %d units sold of shop %d: %w", delta, shopID, err)
	}
	return nil
}

// execer runs a statement: a *sql.Tx, or ent's transaction.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// expireFrom and expireTo are the domain's expiry move as SQL: the statuses it starts
// from (literal, so that the plan uses the unpaid-orders index, whose condition they
// are) and the one it leads to.
var (
	expireMove = domain.MoveOf(domain.OrderExpire)
	expireFrom = statusList(expireMove.From)
)

// ExpireDue implements orders.OrderStore. Each FLASH_SALE unit is held for its sale's
// line or returned to its stock in the same transaction (holdForLine). On PostgreSQL the batch is chosen with FOR
// UPDATE SKIP LOCKED, so nodes sweeping at once take disjoint orders; on SQLite the
// database lock serialises sweeps, and the status condition keeps a second sweep from
// touching an order the first canceled.
func (r *Orders) ExpireDue(ctx context.Context, now time.Time, limit int, line orders.LineHold) ([]domain.VoucherOrder, error) {
	if limit <= 0 {
		return nil, nil
	}
	now = now.UTC()
	var ids []int64
	lineHeld := map[int64]bool{}
	err := r.raw.inTx(ctx, func(tx *sql.Tx) error {
		ids = ids[:0]
		a := &args{o: r.raw}
		lock := ""
		if r.raw.dialect == dialect.Postgres {
			lock = " FOR UPDATE SKIP LOCKED"
		}
		q := "UPDATE voucher_orders SET status = " + a.p(string(expireMove.To)) + ", cancel_reason = " + a.p(string(domain.CancelTimeout)) +
			", canceled_at = " + a.p(now) + ", updated_at = " + a.p(now) +
			" WHERE id IN (SELECT id FROM voucher_orders WHERE status IN " + expireFrom + " AND pay_deadline <= " + a.p(now) +
			" ORDER BY pay_deadline LIMIT " + a.p(limit) + lock + ") AND status IN " + expireFrom + " RETURNING id, voucher_id, user_id, kind, quantity"
		rows, err := tx.QueryContext(ctx, q, a.vals...)
		if err != nil {
			return fmt.Errorf("expire unpaid orders: %w", err)
		}
		var released []domain.VoucherOrder
		for rows.Next() {
			var (
				o    domain.VoucherOrder
				kind string
			)
			if err := rows.Scan(&o.ID, &o.VoucherID, &o.UserID, &kind, &o.Quantity); err != nil {
				rows.Close()
				return err
			}
			ids = append(ids, o.ID)
			if expireMove.ReturnsUnit() && kind == string(domain.VoucherFlashSale) {
				released = append(released, o)
			}
		}
		if err := rows.Close(); err != nil {
			return err
		}
		if err := rows.Err(); err != nil {
			return err
		}
		// Oldest order first: the line is offered the units in the order they expired.
		slices.SortFunc(released, func(a, b domain.VoucherOrder) int { return cmp.Compare(a.ID, b.ID) })
		units := map[int64]int64{}
		clear(lineHeld)
		for _, o := range released {
			n := int64(max(o.Quantity, 1))
			held, err := holdForLine(ctx, tx, r.raw, o.VoucherID, o.ID, o.UserID, now, line)
			if err != nil {
				return err
			}
			if held {
				n--
				lineHeld[o.ID] = true
			}
			units[o.VoucherID] += n
		}
		for vid, n := range units {
			if n == 0 {
				continue
			}
			if err := returnStock(ctx, tx, r.raw, vid, n); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	// Canceled is final: the rows read after the commit are as the sweep left them.
	rows, err := r.client.VoucherOrder.Query().Where(voucherorder.IDIn(ids...)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("read expired orders: %w", err)
	}
	out := toOrders(rows)
	for i := range out {
		out[i].LineHeld = lineHeld[out[i].ID]
	}
	return out, nil
}
