package entstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"entgo.io/ent/dialect"

	"github.com/dealspot/dealspot/ent"
	"github.com/dealspot/dealspot/ent/payment"
	"github.com/dealspot/dealspot/ent/voucherorder"
	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/domain"
)

// Lifecycle holds orders after the claim (transitions, expiry) and their payments. Every
// transition is one conditional UPDATE (… AND status IN (…)), so racing steps on one
// order have exactly one winner.
type Lifecycle struct{ o *Orders }

var _ orders.Store = (*Lifecycle)(nil)

// Lifecycle returns the order lifecycle's store.
func (s *Store) Lifecycle() *Lifecycle { return &Lifecycle{o: s.Orders()} }

// orderColumns are the columns scanOrder reads, in its order.
const orderColumns = "id, user_id, voucher_id, shop_id, kind, quantity, amount, status, created_at, pay_deadline, pay_time, use_time, canceled_at, cancel_reason, refund_time, refund_reason, redemption_code"

type rowScanner interface{ Scan(dest ...any) error }

func scanOrder(row rowScanner) (domain.VoucherOrder, error) {
	var (
		o                                   domain.VoucherOrder
		kind, status, reason, refundReason  string
		deadline, paid, used, canceled, ref sql.NullTime
		code                                sql.NullString
	)
	if err := row.Scan(&o.ID, &o.UserID, &o.VoucherID, &o.ShopID, &kind, &o.Quantity, &o.Amount, &status, &o.CreatedAt,
		&deadline, &paid, &used, &canceled, &reason, &ref, &refundReason, &code); err != nil {
		return domain.VoucherOrder{}, err
	}
	o.Kind, o.Status, o.CancelReason, o.RefundReason = domain.VoucherKind(kind), domain.OrderStatus(status), domain.CancelReason(reason), refundReason
	o.PayDeadline, o.PayTime, o.UseTime, o.CanceledAt, o.RefundTime = timePtr(deadline), timePtr(paid), timePtr(used), timePtr(canceled), timePtr(ref)
	o.RedemptionCode = code.String
	return o, nil
}

func timePtr(t sql.NullTime) *time.Time {
	if !t.Valid {
		return nil
	}
	v := t.Time
	return &v
}

// CreateOrder implements orders.Store.
func (l *Lifecycle) CreateOrder(ctx context.Context, o domain.VoucherOrder) (domain.VoucherOrder, error) {
	c := l.o.client.VoucherOrder.Create().
		SetID(o.ID).SetUserID(o.UserID).SetVoucherID(o.VoucherID).SetShopID(o.ShopID).
		SetKind(voucherorder.Kind(o.Kind)).SetQuantity(max(o.Quantity, 1)).SetAmount(o.Amount).
		SetStatus(voucherorder.Status(o.Status)).
		SetNillablePayDeadline(o.PayDeadline).SetNillablePayTime(o.PayTime)
	if o.RedemptionCode != "" {
		c.SetRedemptionCode(o.RedemptionCode)
	}
	if !o.CreatedAt.IsZero() {
		c.SetCreatedAt(o.CreatedAt)
	}
	if err := c.Exec(ctx); err != nil {
		return domain.VoucherOrder{}, fmt.Errorf("create order %d: %w", o.ID, translate(err, "order", domain.CodeConflict, "order already exists"))
	}
	return l.Order(ctx, o.ID)
}

// Order implements orders.Store.
func (l *Lifecycle) Order(ctx context.Context, id int64) (domain.VoucherOrder, error) {
	o, err := scanOrder(l.o.db.QueryRowContext(ctx, "SELECT "+orderColumns+" FROM voucher_orders WHERE id = "+l.o.param(1), id))
	if errors.Is(err, sql.ErrNoRows) {
		return domain.VoucherOrder{}, domain.ErrNotFound
	}
	if err != nil {
		return domain.VoucherOrder{}, fmt.Errorf("load order %d: %w", id, err)
	}
	return o, nil
}

// OrderByCode implements orders.Store.
func (l *Lifecycle) OrderByCode(ctx context.Context, code string) (domain.VoucherOrder, error) {
	o, err := scanOrder(l.o.db.QueryRowContext(ctx, "SELECT "+orderColumns+" FROM voucher_orders WHERE redemption_code = "+l.o.param(1), code))
	if errors.Is(err, sql.ErrNoRows) {
		return domain.VoucherOrder{}, domain.ErrNotFound
	}
	if err != nil {
		return domain.VoucherOrder{}, fmt.Errorf("load order by code: %w", err)
	}
	return o, nil
}

// args builds a statement's bind parameters in the dialect's syntax.
type args struct {
	o    *Orders
	vals []any
}

// p adds v and returns its placeholder.
func (a *args) p(v any) string {
	a.vals = append(a.vals, v)
	return a.o.param(len(a.vals))
}

// in adds the statuses and returns "(…)" of their placeholders.
func (a *args) in(statuses []domain.OrderStatus) string {
	ph := make([]string, len(statuses))
	for i, s := range statuses {
		ph[i] = a.p(string(s))
	}
	return "(" + strings.Join(ph, ", ") + ")"
}

// Transition implements orders.Store.
func (l *Lifecycle) Transition(ctx context.Context, t orders.Transition) (domain.VoucherOrder, bool, error) {
	if len(t.From) == 0 {
		return domain.VoucherOrder{}, false, errors.New("transition: no status to move from")
	}
	at := t.At.UTC()
	var changed bool
	err := l.o.inTx(ctx, func(tx *sql.Tx) error {
		changed = false
		a := &args{o: l.o}
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
		err := tx.QueryRowContext(ctx, q, a.vals...).Scan(&voucherID, &kind, &quantity)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("move order %d to %s: %w", t.OrderID, t.To, err)
		}
		changed = true
		if t.ReturnUnit && kind == string(domain.VoucherFlashSale) && (t.To == domain.OrderCanceled || t.To == domain.OrderRefunded) {
			if err := l.returnStock(ctx, tx, voucherID, int64(quantity)); err != nil {
				return err
			}
		}
		if m := t.Payment; m != nil {
			// Placeholders in the order they appear: SQLite's "?" are positional.
			b := &args{o: l.o}
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
				return fmt.Errorf("move payment %d to %s: %w", m.PaymentID, m.To, err)
			}
		}
		return nil
	})
	if err != nil {
		return domain.VoucherOrder{}, false, err
	}
	o, err := l.Order(ctx, t.OrderID)
	if err != nil {
		return domain.VoucherOrder{}, false, err
	}
	return o, changed, nil
}

// returnStock gives n units back to a flash sale's database stock.
func (l *Lifecycle) returnStock(ctx context.Context, tx *sql.Tx, voucherID, n int64) error {
	a := &args{o: l.o}
	_, err := tx.ExecContext(ctx, "UPDATE flash_sales SET stock = stock + "+a.p(n)+", updated_at = "+a.p(time.Now().UTC())+
		" WHERE id = "+a.p(voucherID), a.vals...)
	if err != nil {
		return fmt.Errorf("return %d units to sale %d: %w", n, voucherID, err)
	}
	return nil
}

// ExpireDue implements orders.Store. On PostgreSQL the batch is chosen with FOR UPDATE
// SKIP LOCKED, so nodes sweeping at once take disjoint orders; on SQLite the database
// lock serialises sweeps, and the status condition keeps a second sweep from touching
// an order the first canceled.
func (l *Lifecycle) ExpireDue(ctx context.Context, now time.Time, limit int) ([]domain.VoucherOrder, error) {
	if limit <= 0 {
		return nil, nil
	}
	now = now.UTC()
	var out []domain.VoucherOrder
	err := l.o.inTx(ctx, func(tx *sql.Tx) error {
		out = out[:0]
		a := &args{o: l.o}
		lock := ""
		if l.o.dialect == dialect.Postgres {
			lock = " FOR UPDATE SKIP LOCKED"
		}
		q := "UPDATE voucher_orders SET status = 'CANCELED', cancel_reason = " + a.p(string(domain.CancelTimeout)) +
			", canceled_at = " + a.p(now) + ", updated_at = " + a.p(now) +
			" WHERE id IN (SELECT id FROM voucher_orders WHERE status = 'CREATED' AND pay_deadline <= " + a.p(now) +
			" ORDER BY pay_deadline LIMIT " + a.p(limit) + lock + ") AND status = 'CREATED' RETURNING " + orderColumns
		rows, err := tx.QueryContext(ctx, q, a.vals...)
		if err != nil {
			return fmt.Errorf("expire unpaid orders: %w", err)
		}
		for rows.Next() {
			o, err := scanOrder(rows)
			if err != nil {
				rows.Close()
				return err
			}
			out = append(out, o)
		}
		if err := rows.Close(); err != nil {
			return err
		}
		if err := rows.Err(); err != nil {
			return err
		}
		units := map[int64]int64{}
		for _, o := range out {
			if o.Kind == domain.VoucherFlashSale {
				units[o.VoucherID] += int64(max(o.Quantity, 1))
			}
		}
		for vid, n := range units {
			if err := l.returnStock(ctx, tx, vid, n); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// OrdersOfShop implements orders.Store.
func (l *Lifecycle) OrdersOfShop(ctx context.Context, shopID int64, statuses []domain.OrderStatus, before int64, limit int) ([]domain.VoucherOrder, error) {
	a := &args{o: l.o}
	q := "SELECT " + orderColumns + " FROM voucher_orders WHERE shop_id = " + a.p(shopID)
	if len(statuses) > 0 {
		q += " AND status IN " + a.in(statuses)
	}
	if before > 0 {
		q += " AND id < " + a.p(before)
	}
	q += " ORDER BY id DESC LIMIT " + a.p(limit)
	rows, err := l.o.db.QueryContext(ctx, q, a.vals...)
	if err != nil {
		return nil, fmt.Errorf("list orders of shop %d: %w", shopID, err)
	}
	defer rows.Close()
	var out []domain.VoucherOrder
	for rows.Next() {
		o, err := scanOrder(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, rows.Err()
}

// CountByStatus implements orders.Store.
func (l *Lifecycle) CountByStatus(ctx context.Context, voucherID int64, since time.Time) (map[domain.OrderStatus]int64, int64, error) {
	a := &args{o: l.o}
	q := "SELECT status, COUNT(*), COALESCE(SUM(CASE WHEN created_at >= " + a.p(since.UTC()) + " THEN 1 ELSE 0 END), 0)" +
		" FROM voucher_orders WHERE voucher_id = " + a.p(voucherID) + " GROUP BY status"
	rows, err := l.o.db.QueryContext(ctx, q, a.vals...)
	if err != nil {
		return nil, 0, fmt.Errorf("count orders of voucher %d: %w", voucherID, err)
	}
	defer rows.Close()
	counts := map[domain.OrderStatus]int64{}
	var recent int64
	for rows.Next() {
		var (
			status string
			n, r   int64
		)
		if err := rows.Scan(&status, &n, &r); err != nil {
			return nil, 0, err
		}
		counts[domain.OrderStatus(status)] = n
		recent += r
	}
	return counts, recent, rows.Err()
}

// CreatePayment implements orders.Store.
func (l *Lifecycle) CreatePayment(ctx context.Context, p domain.Payment) (domain.Payment, bool, error) {
	c := l.o.client.Payment.Create().SetID(p.ID).SetOrderID(p.OrderID).SetUserID(p.UserID).SetAmount(p.Amount).
		SetStatus(payment.StatusPENDING).SetProvider(p.Provider)
	if !p.CreatedAt.IsZero() {
		c.SetCreatedAt(p.CreatedAt)
	}
	err := c.Exec(ctx)
	if err == nil {
		stored, err := l.Payment(ctx, p.ID)
		return stored, true, err
	}
	if !ent.IsConstraintError(err) {
		return domain.Payment{}, false, fmt.Errorf("create payment of order %d: %w", p.OrderID, err)
	}
	open, qerr := l.o.client.Payment.Query().
		Where(payment.OrderID(p.OrderID), payment.StatusEQ(payment.StatusPENDING)).Only(ctx)
	if qerr != nil {
		return domain.Payment{}, false, fmt.Errorf("create payment of order %d: %w", p.OrderID, errors.Join(err, qerr))
	}
	return toPayment(open), false, nil
}

// SetProviderRef implements orders.Store.
func (l *Lifecycle) SetProviderRef(ctx context.Context, paymentID int64, ref string) error {
	if err := l.o.client.Payment.UpdateOneID(paymentID).SetProviderRef(ref).Exec(ctx); err != nil {
		return fmt.Errorf("record provider ref of payment %d: %w", paymentID, notFound(err, "payment"))
	}
	return nil
}

// Payment implements orders.Store.
func (l *Lifecycle) Payment(ctx context.Context, id int64) (domain.Payment, error) {
	p, err := l.o.client.Payment.Get(ctx, id)
	if err != nil {
		return domain.Payment{}, fmt.Errorf("load payment %d: %w", id, notFound(err, "payment"))
	}
	return toPayment(p), nil
}

// PaymentsOfOrder implements orders.Store.
func (l *Lifecycle) PaymentsOfOrder(ctx context.Context, orderID int64) ([]domain.Payment, error) {
	rows, err := l.o.client.Payment.Query().Where(payment.OrderID(orderID)).Order(payment.ByID()).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list payments of order %d: %w", orderID, err)
	}
	out := make([]domain.Payment, len(rows))
	for i, p := range rows {
		out[i] = toPayment(p)
	}
	return out, nil
}

// refundReasonLate is recorded on a payment that succeeded after its order stopped
// waiting for it.
const refundReasonLate = "the order was no longer awaiting payment"

// SettlePayment implements orders.Store.
func (l *Lifecycle) SettlePayment(ctx context.Context, paymentID int64, succeeded bool, at time.Time, code string) (orders.Settlement, error) {
	at = at.UTC()
	var outcome orders.SettleOutcome
	err := l.o.inTx(ctx, func(tx *sql.Tx) error {
		a := &args{o: l.o}
		var orderID int64
		var status string
		err := tx.QueryRowContext(ctx, "SELECT order_id, status FROM payments WHERE id = "+a.p(paymentID), a.vals...).Scan(&orderID, &status)
		if errors.Is(err, sql.ErrNoRows) {
			return domain.ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("read payment %d: %w", paymentID, err)
		}
		if status != string(domain.PaymentPending) {
			outcome = orders.SettledAgain
			return nil
		}
		movePayment := func(to domain.PaymentStatus, extra string, vals ...any) (bool, error) {
			b := &args{o: l.o}
			q := "UPDATE payments SET status = " + b.p(string(to)) + ", updated_at = " + b.p(at)
			for i := 0; i+1 < len(vals); i += 2 {
				q += ", " + vals[i].(string) + " = " + b.p(vals[i+1])
			}
			q += " WHERE id = " + b.p(paymentID) + " AND status = " + b.p(string(extra))
			res, err := tx.ExecContext(ctx, q, b.vals...)
			if err != nil {
				return false, fmt.Errorf("move payment %d to %s: %w", paymentID, to, err)
			}
			n, err := res.RowsAffected()
			return n == 1, err
		}
		if !succeeded {
			moved, err := movePayment(domain.PaymentFailed, string(domain.PaymentPending))
			outcome = orders.SettledFailed
			if !moved {
				outcome = orders.SettledAgain
			}
			return err
		}
		moved, err := movePayment(domain.PaymentSucceeded, string(domain.PaymentPending), "paid_at", at)
		if err != nil || !moved {
			outcome = orders.SettledAgain
			return err
		}
		b := &args{o: l.o}
		res, err := tx.ExecContext(ctx, "UPDATE voucher_orders SET status = 'PAID', pay_time = "+b.p(at)+", redemption_code = "+b.p(code)+
			", updated_at = "+b.p(at)+" WHERE id = "+b.p(orderID)+" AND status = 'CREATED'", b.vals...)
		if err != nil {
			return fmt.Errorf("pay order %d: %w", orderID, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 1 {
			outcome = orders.SettledPaid
			return nil
		}
		// The order stopped waiting (canceled, expired or paid otherwise): the money goes back.
		outcome = orders.SettledRefundDue
		_, err = movePayment(domain.PaymentRefundPending, string(domain.PaymentSucceeded), "refund_reason", refundReasonLate)
		return err
	})
	if errors.Is(err, domain.ErrNotFound) {
		return orders.Settlement{}, domain.ErrNotFound
	}
	if err != nil {
		return orders.Settlement{}, fmt.Errorf("settle payment %d: %w", paymentID, err)
	}
	p, err := l.Payment(ctx, paymentID)
	if err != nil {
		return orders.Settlement{}, err
	}
	o, err := l.Order(ctx, p.OrderID)
	if err != nil {
		return orders.Settlement{}, err
	}
	return orders.Settlement{Outcome: outcome, Payment: p, Order: o}, nil
}

// RefundsDue implements orders.Store.
func (l *Lifecycle) RefundsDue(ctx context.Context, limit int) ([]domain.Payment, error) {
	rows, err := l.o.client.Payment.Query().Where(payment.StatusEQ(payment.StatusREFUND_PENDING)).
		Order(payment.ByID()).Limit(limit).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list refunds due: %w", err)
	}
	out := make([]domain.Payment, len(rows))
	for i, p := range rows {
		out[i] = toPayment(p)
	}
	return out, nil
}

// MarkRefunded implements orders.Store.
func (l *Lifecycle) MarkRefunded(ctx context.Context, paymentID int64, at time.Time) (bool, error) {
	n, err := l.o.client.Payment.Update().
		Where(payment.ID(paymentID), payment.StatusEQ(payment.StatusREFUND_PENDING)).
		SetStatus(payment.StatusREFUNDED).SetRefundedAt(at.UTC()).Save(ctx)
	if err != nil {
		return false, fmt.Errorf("mark payment %d refunded: %w", paymentID, err)
	}
	return n == 1, nil
}

func toPayment(p *ent.Payment) domain.Payment {
	return domain.Payment{
		ID: p.ID, OrderID: p.OrderID, UserID: p.UserID, Amount: p.Amount, Status: domain.PaymentStatus(p.Status),
		Provider: p.Provider, ProviderRef: p.ProviderRef, CreatedAt: p.CreatedAt, PaidAt: p.PaidAt,
		RefundedAt: p.RefundedAt, RefundReason: p.RefundReason,
	}
}

var _ orders.LedgerReader = (*Lifecycle)(nil)

// Ledger implements orders.LedgerReader: one counting statement per property, each on
// the sale's orders (voucher_id index) and their payments (order_id index).
func (l *Lifecycle) Ledger(ctx context.Context, voucherID int64) (orders.Ledger, error) {
	led := orders.Ledger{VoucherID: voucherID}
	const ofSale = " FROM voucher_orders o WHERE o.voucher_id = "
	const paymentsOfSale = " FROM payments p JOIN voucher_orders o ON o.id = p.order_id WHERE o.voucher_id = "
	counts := []struct {
		into *int64
		sql  string // the statement up to the voucher id
		tail string // what follows it
	}{
		{&led.Orders, "SELECT COUNT(*)" + ofSale, ""},
		{&led.Payments, "SELECT COUNT(*)" + paymentsOfSale, ""},
		{&led.PaymentsPending, "SELECT COUNT(*)" + paymentsOfSale, " AND p.status = 'PENDING'"},
		{&led.RefundsPending, "SELECT COUNT(*)" + paymentsOfSale, " AND p.status = 'REFUND_PENDING'"},
		{&led.PaidAndCanceled, "SELECT COUNT(*)" + ofSale, " AND o.status IN ('CANCELED', 'FAILED') AND o.pay_time IS NOT NULL"},
		{&led.StrayPayments, "SELECT COUNT(*)" + paymentsOfSale, " AND p.status = 'SUCCEEDED' AND o.status NOT IN ('PAID', 'USED')"},
		{&led.PaidWithoutPayment, "SELECT COUNT(*)" + ofSale, " AND o.status IN ('PAID', 'USED') AND o.amount > 0" +
			" AND (SELECT COUNT(*) FROM payments p WHERE p.order_id = o.id AND p.status = 'SUCCEEDED') <> 1"},
		{&led.RefundedKeptMoney, "SELECT COUNT(*)" + ofSale, " AND o.status = 'REFUNDED' AND o.amount > 0" +
			" AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.order_id = o.id AND p.status IN ('REFUNDED', 'REFUND_PENDING'))"},
		{&led.PaidWithoutCode, "SELECT COUNT(*)" + ofSale, " AND o.status IN ('PAID', 'USED') AND (o.redemption_code IS NULL OR o.redemption_code = '')"},
		{&led.SharedCodes, "SELECT COUNT(*) FROM (SELECT o.redemption_code" + ofSale,
			" AND o.redemption_code IS NOT NULL GROUP BY o.redemption_code HAVING COUNT(*) > 1) shared"},
		{&led.UsedWithoutTime, "SELECT COUNT(*)" + ofSale, " AND o.status = 'USED' AND o.use_time IS NULL"},
	}
	for _, c := range counts {
		if err := l.o.db.QueryRowContext(ctx, c.sql+l.o.param(1)+c.tail, voucherID).Scan(c.into); err != nil {
			return orders.Ledger{}, fmt.Errorf("ledger of voucher %d: %w", voucherID, err)
		}
	}
	return led, nil
}
