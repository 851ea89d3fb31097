package entstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/domain"
)

// liveOrderStatuses are the statuses of an order that holds a unit, as SQL.
var liveOrderStatuses = statusList([]domain.OrderStatus{domain.OrderPending, domain.OrderCreated, domain.OrderPaid, domain.OrderUsed})

// holdForLine holds the unit a released order (orderID, of userID) gives back to its
// sale for the first in the sale's waitlist, in tx — the transaction that releases the
// order — as line says (orders.LineHold): the first WAITING place whose user holds no
// live order of the sale becomes OFFERED (the places of users who do are closed PASSED
// on the way) and the unit a HELD row for it until at+OfferTTL, keyed by the order. The
// unit never enters the sale's stock. It reports false when the unit is the stock's:
// no line, the sale ended at at, or nobody waits.
//
// The place is taken with a conditional UPDATE (… AND status = 'WAITING'): of two
// releases racing for one place, one takes it and the other moves on to the next.
func holdForLine(ctx context.Context, tx *sql.Tx, raw *rawSQL, voucherID, orderID, userID int64, at time.Time, line orders.LineHold) (bool, error) {
	if line.OfferTTL <= 0 {
		return false, nil
	}
	at = at.UTC()
	a := &args{o: raw}
	var end time.Time
	err := tx.QueryRowContext(ctx, "SELECT end_time FROM flash_sales WHERE id = "+a.p(voucherID), a.vals...).Scan(&end)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read the end of sale %d: %w", voucherID, err)
	}
	if !at.Before(end) {
		return false, nil
	}
	for {
		b := &args{o: raw}
		var entryID, next int64
		err := tx.QueryRowContext(ctx, "SELECT id, user_id FROM waitlist_entries WHERE voucher_id = "+b.p(voucherID)+
			" AND status = 'WAITING' ORDER BY id LIMIT 1", b.vals...).Scan(&entryID, &next)
		if errors.Is(err, sql.ErrNoRows) {
			return false, nil
		}
		if err != nil {
			return false, fmt.Errorf("read the first in line of sale %d: %w", voucherID, err)
		}
		c := &args{o: raw}
		var holds int
		if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM voucher_orders WHERE user_id = "+c.p(next)+" AND voucher_id = "+
			c.p(voucherID)+" AND kind = 'FLASH_SALE' AND status IN "+liveOrderStatuses, c.vals...).Scan(&holds); err != nil {
			return false, fmt.Errorf("read the orders of user %d: %w", next, err)
		}
		to := "OFFERED"
		if holds > 0 {
			to = "PASSED"
		}
		d := &args{o: raw}
		res, err := tx.ExecContext(ctx, "UPDATE waitlist_entries SET status = "+d.p(to)+", updated_at = "+d.p(at)+
			" WHERE id = "+d.p(entryID)+" AND status = 'WAITING'", d.vals...)
		if err != nil {
			return false, fmt.Errorf("offer place %d: %w", entryID, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return false, err
		} else if n != 1 || holds > 0 {
			continue
		}
		e := &args{o: raw}
		if _, err := tx.ExecContext(ctx, "INSERT INTO waitlist_units (created_at, updated_at, voucher_id, source_order_id, source_user_id, "+
			"status, user_id, entry_id, offered_at, expires_at, order_id) VALUES ("+e.p(at)+", "+e.p(at)+", "+e.p(voucherID)+", "+
			e.p(orderID)+", "+e.p(userID)+", 'HELD', "+e.p(next)+", "+e.p(entryID)+", "+e.p(at)+", "+e.p(at.Add(line.OfferTTL))+", 0)",
			e.vals...); err != nil {
			return false, fmt.Errorf("hold the unit of order %d for user %d: %w", orderID, next, err)
		}
		return true, nil
	}
}
