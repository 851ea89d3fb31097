package entstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/dealspot/dealspot/ent"
	"github.com/dealspot/dealspot/ent/payment"
	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/domain"
)

// Payments holds the payments of orders, their own rows. A settlement moves its order
// in the same transaction through the order store's transition (Orders.moveTx), so the
// order's moves stay the domain's table; the ledger reads both.
type Payments struct {
	client *ent.Client
	raw    *rawSQL
	orders *Orders
}

var _ orders.PaymentStore = (*Payments)(nil)

// Payments returns the payment store.
func (s *Store) Payments() *Payments {
	return &Payments{client: s.client, raw: s.raw(), orders: s.Orders()}
}

// CreatePayment implements orders.PaymentStore.
func (r *Payments) CreatePayment(ctx context.Context, p domain.Payment) (domain.Payment, bool, error) {
	c := r.client.Payment.Create().SetID(p.ID).SetOrderID(p.OrderID).SetUserID(p.UserID).SetAmount(p.Amount).
		SetStatus(payment.StatusPENDING).SetProvider(p.Provider)
	if !p.CreatedAt.IsZero() {
		c.SetCreatedAt(p.CreatedAt)
	}
	err := c.Exec(ctx)
	if err == nil {
		stored, err := r.Payment(ctx, p.ID)
		return stored, true, err
	}
	if !ent.IsConstraintError(err) {
		return domain.Payment{}, false, fmt.Errorf("create payment of order %d: %w", p.OrderID, err)
	}
	open, qerr := r.client.Payment.Query().
		Where(payment.OrderID(p.OrderID), payment.StatusEQ(payment.StatusPENDING)).Only(ctx)
	if qerr != nil {
		return domain.Payment{}, false, fmt.Errorf("create payment of order %d: %w", p.OrderID, errors.Join(err, qerr))
	}
	return toPayment(open), false, nil
}

// SetProviderRef implements orders.PaymentStore.
func (r *Payments) SetProviderRef(ctx context.Context, paymentID int64, ref string) error {
	if err := r.client.Payment.UpdateOneID(paymentID).SetProviderRef(ref).Exec(ctx); err != nil {
		return fmt.Errorf("record provider ref of payment %d: %w", paymentID, notFound(err, "payment"))
	}
	return nil
}

// Payment implements orders.PaymentStore.
func (r *Payments) Payment(ctx context.Context, id int64) (domain.Payment, error) {
	p, err := r.client.Payment.Get(ctx, id)
	if err != nil {
		return domain.Payment{}, fmt.Errorf("load payment %d: %w", id, notFound(err, "payment"))
	}
	return toPayment(p), nil
}

// PaymentsOfOrder implements orders.PaymentStore.
func (r *Payments) PaymentsOfOrder(ctx context.Context, orderID int64) ([]domain.Payment, error) {
	rows, err := r.client.Payment.Query().Where(payment.OrderID(orderID)).Order(payment.ByID()).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list payments of order %d: %w", orderID, err)
	}
	out := make([]domain.Payment, len(rows))
	for i, p := range rows {
		out[i] = toPayment(p)
	}
	return out, nil
}

// paymentsOfOrdersChunk bounds the order ids of one PaymentsOfOrders query (bind
// parameters).
const paymentsOfOrdersChunk = 500

// PaymentsOfOrders implements orders.PaymentStore.
func (r *Payments) PaymentsOfOrders(ctx context.Context, orderIDs []int64) (map[int64][]domain.Payment, error) {
	out := map[int64][]domain.Payment{}
	for start := 0; start < len(orderIDs); start += paymentsOfOrdersChunk {
		part := orderIDs[start:min(start+paymentsOfOrdersChunk, len(orderIDs))]
		rows, err := r.client.Payment.Query().Where(payment.OrderIDIn(part...)).Order(payment.ByID()).All(ctx)
		if err != nil {
			return nil, fmt.Errorf("list payments of %d orders: %w", len(part), err)
		}
		for _, p := range rows {
			out[p.OrderID] = append(out[p.OrderID], toPayment(p))
		}
	}
	return out, nil
}

// OpenPayment implements orders.PaymentStore.
func (r *Payments) OpenPayment(ctx context.Context, orderID int64) (bool, error) {
	open, err := r.client.Payment.Query().
		Where(payment.OrderID(orderID), payment.StatusIn(payment.StatusPENDING, payment.StatusREFUND_PENDING)).Exist(ctx)
	if err != nil {
		return false, fmt.Errorf("look for open payments of order %d: %w", orderID, err)
	}
	return open, nil
}

// refundReasonLate is recorded on a payment that succeeded after its order stopped
// waiting for it.
const refundReasonLate = "the order was no longer awaiting payment"

// SettlePayment implements orders.PaymentStore.
func (r *Payments) SettlePayment(ctx context.Context, paymentID int64, succeeded bool, at time.Time, code, reason string) (orders.Settlement, error) {
	at = at.UTC()
	var outcome orders.SettleOutcome
	err := r.raw.inTx(ctx, func(tx *sql.Tx) error {
		a := &args{o: r.raw}
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
			b := &args{o: r.raw}
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
			moved, err := movePayment(domain.PaymentFailed, string(domain.PaymentPending), "fail_reason", reason)
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
		pay := orders.Move(domain.OrderPay, orderID, at)
		pay.RedemptionCode = code
		if paid, _, err := r.orders.moveTx(ctx, tx, pay); err != nil {
			return fmt.Errorf("pay order %d: %w", orderID, err)
		} else if paid {
			outcome = orders.SettledPaid
			return nil
		}
		// The order stopped waiting (canceled, expired or paid otherwise): the money goes back.
		outcome = orders.SettledRefundDue
		// All of it: the order never held the units it paid for.
		b := &args{o: r.raw}
		_, err = tx.ExecContext(ctx, "UPDATE payments SET status = "+b.p(string(domain.PaymentRefundPending))+", updated_at = "+b.p(at)+
			", refund_reason = "+b.p(refundReasonLate)+", refund_amount = amount WHERE id = "+b.p(paymentID)+
			" AND status = "+b.p(string(domain.PaymentSucceeded)), b.vals...)
		if err != nil {
			return fmt.Errorf("move payment %d to %s: %w", paymentID, domain.PaymentRefundPending, err)
		}
		return nil
	})
	if errors.Is(err, domain.ErrNotFound) {
		return orders.Settlement{}, domain.ErrNotFound
	}
	if err != nil {
		return orders.Settlement{}, fmt.Errorf("settle payment %d: %w", paymentID, err)
	}
	p, err := r.Payment(ctx, paymentID)
	if err != nil {
		return orders.Settlement{}, err
	}
	o, err := r.orders.Order(ctx, p.OrderID)
	if err != nil {
		return orders.Settlement{}, err
	}
	return orders.Settlement{Outcome: outcome, Payment: p, Order: o}, nil
}

// RefundsDue implements orders.PaymentStore.
func (r *Payments) RefundsDue(ctx context.Context, limit int) ([]domain.Payment, error) {
	rows, err := r.client.Payment.Query().Where(payment.StatusEQ(payment.StatusREFUND_PENDING)).
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

// MarkRefunded implements orders.PaymentStore.
func (r *Payments) MarkRefunded(ctx context.Context, paymentID int64, at time.Time) (bool, error) {
	n, err := r.client.Payment.Update().
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
		RefundedAt: p.RefundedAt, RefundReason: p.RefundReason, RefundAmount: p.RefundAmount, FailReason: p.FailReason,
	}
}

var _ orders.LedgerReader = (*Payments)(nil)

// Ledger implements orders.LedgerReader: one counting statement per property, each on
// the sale's orders (voucher_id index) and their payments (order_id index).
func (r *Payments) Ledger(ctx context.Context, voucherID int64) (orders.Ledger, error) {
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
		if err := r.raw.db.QueryRowContext(ctx, c.sql+r.raw.param(1)+c.tail, voucherID).Scan(c.into); err != nil {
			return orders.Ledger{}, fmt.Errorf("ledger of voucher %d: %w", voucherID, err)
		}
	}
	return led, nil
}
