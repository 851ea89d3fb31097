package entstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
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
	var changed bool
	err := r.raw.inTx(ctx, func(tx *sql.Tx) (err error) {
		changed, err = r.moveTx(ctx, tx, t)
		return err
	})
	if err != nil {
		return domain.VoucherOrder{}, false, err
	}
	o, err := r.Order(ctx, t.OrderID)
	if err != nil {
		return domain.VoucherOrder{}, false, err
	}
	return o, changed, nil
}

// moveTx applies t in tx: the order's conditional UPDATE, then, when it won, the unit
// back to the sale's stock and the payment's move (t.Payment). changed is false when
// the order's status is not in t.From.
func (r *Orders) moveTx(ctx context.Context, tx *sql.Tx, t orders.Transition) (changed bool, err error) {
	at := t.At.UTC()
	a := &args{o: r.raw}
	set := "status = " + a.p(string(t.To)) + ", updated_at = " + a.p(at)
	switch t.To {
	case domain.OrderPaid:
		set += ", pay_time = " + a.p(at) + ", redemption_code = " + a.p(t.RedemptionCode)
	case domain.OrderUsed:
		set += ", use_time = " + a.p(at)
	case domain.OrderCanceled:
		set += ", canceled_at = " + a.p(at) + ", cancel_reason = " + a.p(string(t.CancelReason))
	case domain.OrderRefunded:
		set += ", refund_time = " + a.p(at) + ", refund_reason = " + a.p(t.RefundReason)
	}
	q := "UPDATE voucher_orders SET " + set + " WHERE id = " + a.p(t.OrderID) + " AND status IN " + a.in(t.From) +
		" RETURNING voucher_id, kind, quantity"
	var (
		voucherID int64
		kind      string
		quantity  int
	)
	err = tx.QueryRowContext(ctx, q, a.vals...).Scan(&voucherID, &kind, &quantity)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("move order %d to %s: %w", t.OrderID, t.To, err)
	}
	if t.ReturnUnit && kind == string(domain.VoucherFlashSale) && !t.To.HoldsUnit() {
		if err := returnStock(ctx, tx, r.raw, voucherID, int64(quantity)); err != nil {
			return false, err
		}
	}
	if m := t.Payment; m != nil {
		// Placeholders in the order they appear: SQLite's "?" are positional.
		b := &args{o: r.raw}
		pq := "UPDATE payments SET status = " + b.p(string(m.To)) + ", updated_at = " + b.p(at)
		if m.Reason != "" {
			pq += ", refund_reason = " + b.p(m.Reason)
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
			return false, fmt.Errorf("move payment %d to %s: %w", m.PaymentID, m.To, err)
		}
	}
	return true, nil
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

// expireFrom and expireTo are the domain's expiry move as SQL: the statuses it starts
// from (literal, so that the plan uses the unpaid-orders index, whose condition they
// are) and the one it leads to.
var (
	expireMove = domain.MoveOf(domain.OrderExpire)
	expireFrom = statusList(expireMove.From)
)

// ExpireDue implements orders.OrderStore. On PostgreSQL the batch is chosen with FOR
// UPDATE SKIP LOCKED, so nodes sweeping at once take disjoint orders; on SQLite the
// database lock serialises sweeps, and the status condition keeps a second sweep from
// touching an order the first canceled.
func (r *Orders) ExpireDue(ctx context.Context, now time.Time, limit int) ([]domain.VoucherOrder, error) {
	if limit <= 0 {
		return nil, nil
	}
	now = now.UTC()
	var ids []int64
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
			" ORDER BY pay_deadline LIMIT " + a.p(limit) + lock + ") AND status IN " + expireFrom + " RETURNING id, voucher_id, kind, quantity"
		rows, err := tx.QueryContext(ctx, q, a.vals...)
		if err != nil {
			return fmt.Errorf("expire unpaid orders: %w", err)
		}
		units := map[int64]int64{}
		for rows.Next() {
			var (
				id, voucherID int64
				kind          string
				quantity      int
			)
			if err := rows.Scan(&id, &voucherID, &kind, &quantity); err != nil {
				rows.Close()
				return err
			}
			ids = append(ids, id)
			if expireMove.ReturnsUnit() && kind == string(domain.VoucherFlashSale) {
				units[voucherID] += int64(max(quantity, 1))
			}
		}
		if err := rows.Close(); err != nil {
			return err
		}
		if err := rows.Err(); err != nil {
			return err
		}
		for vid, n := range units {
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
	return toOrders(rows), nil
}
