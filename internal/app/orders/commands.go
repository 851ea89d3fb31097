package orders

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/dealspot/dealspot/internal/domain"
)

// BuyVoucher buys a normal voucher.
type BuyVoucher struct{ c *core }

// Handle creates an order for quantity vouchers: CREATED, to be paid before its pay
// deadline, or PAID at once (with a redemption code) when it costs nothing. Errors:
// NOT_FOUND; BAD_USER_INPUT for a flash-sale voucher (claimed with claimVoucher), one
// off sale, or a quantity outside 1..MaxQuantity.
func (u *BuyVoucher) Handle(ctx context.Context, a domain.Actor, voucherID int64, quantity int) (domain.VoucherOrder, error) {
	if err := loggedIn(a); err != nil {
		return domain.VoucherOrder{}, err
	}
	if quantity < 1 || quantity > u.c.cfg.MaxQuantity {
		return domain.VoucherOrder{}, domain.Errorf(domain.CodeBadUserInput, "quantity must be between 1 and %d", u.c.cfg.MaxQuantity)
	}
	v, err := u.c.d.Vouchers.Voucher(ctx, voucherID)
	if errors.Is(err, domain.ErrNotFound) {
		return domain.VoucherOrder{}, domain.Errorf(domain.CodeNotFound, "no voucher %d", voucherID)
	}
	if err != nil {
		return domain.VoucherOrder{}, fmt.Errorf("read voucher %d: %w", voucherID, err)
	}
	switch {
	case v.Kind == domain.VoucherFlashSale:
		return domain.VoucherOrder{}, domain.Errorf(domain.CodeBadUserInput, "voucher %d is a flash sale: claim it with claimVoucher", voucherID)
	case v.Status == domain.VoucherOffSale:
		return domain.VoucherOrder{}, domain.Errorf(domain.CodeBadUserInput, "voucher %d is not on sale", voucherID)
	}
	id, err := u.c.d.IDs.NextID(ctx)
	if err != nil {
		return domain.VoucherOrder{}, fmt.Errorf("order id: %w", err)
	}
	now := u.c.now()
	o := domain.VoucherOrder{ID: id, UserID: a.UserID, VoucherID: v.ID, ShopID: v.ShopID, Kind: domain.VoucherNormal,
		Quantity: quantity, Amount: v.PayValue * int64(quantity), Status: domain.OrderPending, CreatedAt: now}
	if o.Status, err = o.Written(); err != nil {
		return domain.VoucherOrder{}, err
	}
	if o.Status == domain.OrderPaid {
		o.PayTime, o.RedemptionCode = &now, domain.NewRedemptionCode()
	} else {
		deadline := now.Add(u.c.cfg.PayTimeout)
		o.PayDeadline = &deadline
	}
	created, err := u.c.d.Orders.CreateOrder(ctx, o)
	if err == nil && created.Status == domain.OrderPaid {
		u.c.soldChanged(ctx, created)
	}
	return created, err
}

// PayOrder starts paying an order through the payment provider.
type PayOrder struct{ c *core }

// Handle creates a payment for the caller's CREATED order at the provider, or returns
// the order's open payment (paying twice charges once). The order becomes PAID when the
// provider's notification arrives. Errors: NOT_FOUND; CONFLICT when the order is not
// CREATED or its pay deadline passed.
func (u *PayOrder) Handle(ctx context.Context, a domain.Actor, orderID int64) (domain.Payment, error) {
	o, err := u.c.ownOrder(ctx, a, orderID)
	if err != nil {
		return domain.Payment{}, err
	}
	if _, err := o.Pay(); err != nil {
		return domain.Payment{}, err
	}
	if o.PayDeadline != nil && !u.c.now().Before(*o.PayDeadline) {
		return domain.Payment{}, domain.StatusConflict(o.Status, "the order's pay deadline passed")
	}
	id, err := u.c.d.IDs.NextID(ctx)
	if err != nil {
		return domain.Payment{}, fmt.Errorf("payment id: %w", err)
	}
	p, created, err := u.c.d.Payments.CreatePayment(ctx, domain.Payment{ID: id, OrderID: o.ID, UserID: o.UserID, Amount: o.Amount,
		Provider: u.c.d.Provider.Name(), CreatedAt: u.c.now()})
	if err != nil {
		return domain.Payment{}, fmt.Errorf("create payment: %w", err)
	}
	if !created && p.ProviderRef != "" {
		return p, nil
	}
	// New, or open without the provider's reference (its creation at the provider may
	// not have happened): the provider keys payments by our id, so asking again is safe.
	ref, err := u.c.d.Provider.CreatePayment(ctx, p)
	if err != nil {
		return domain.Payment{}, fmt.Errorf("create payment at the provider: %w", err)
	}
	if err := u.c.d.Payments.SetProviderRef(ctx, p.ID, ref); err != nil {
		return domain.Payment{}, err
	}
	p.ProviderRef = ref
	return p, nil
}

// PaymentNotifications apply the provider's verified notifications.
type PaymentNotifications struct{ c *core }

// Notify applies one notification; a repeated one changes nothing and is no error.
// A success for an order that no longer awaits payment is refunded. The order's
// subscribers are told: PAID, or an event that leaves the status as it was and says what
// happened to the money (domain.EventPaymentDeclined, EventPaymentRefunding,
// EventPaymentRefunded). A success that pays the order awards the buyer its credits;
// should that fail, Notify fails, and the provider's repeated notification awards them
// (once). Errors: NOT_FOUND for an unknown payment; BAD_USER_INPUT when the amount
// differs from the payment's.
func (u *PaymentNotifications) Notify(ctx context.Context, n Notification) error {
	p, err := u.c.d.Payments.Payment(ctx, n.PaymentID)
	if errors.Is(err, domain.ErrNotFound) {
		return domain.Errorf(domain.CodeNotFound, "no payment %d", n.PaymentID)
	}
	if err != nil {
		return err
	}
	if n.Succeeded && n.Amount != p.Amount {
		u.c.log.Warn("payment notification with the wrong amount", slog.Int64("payment_id", p.ID),
			slog.Int64("amount", n.Amount), slog.Int64("expected", p.Amount))
		return domain.Errorf(domain.CodeBadUserInput, "amount %d does not match the payment's %d", n.Amount, p.Amount)
	}
	at := n.At
	if at.IsZero() {
		at = u.c.now()
	}
	reason := n.Reason
	if len([]rune(reason)) > 255 {
		reason = string([]rune(reason)[:255])
	}
	st, err := u.c.d.Payments.SettlePayment(ctx, p.ID, n.Succeeded, at, domain.NewRedemptionCode(), reason)
	if err != nil {
		return err
	}
	switch st.Outcome {
	case SettledPaid:
		u.c.soldChanged(ctx, st.Order)
		u.c.publish(ctx, st.Order, "")
		return u.c.awardPaid(ctx, st.Order)
	case SettledFailed:
		u.c.publish(ctx, st.Order, domain.EventPaymentDeclined)
	case SettledAgain:
		// A repeated success: the award of the order it paid may be what failed before.
		if !n.Succeeded || p.Status != domain.PaymentSucceeded || u.c.d.Credits == nil {
			return nil
		}
		o, err := u.c.d.Orders.Order(ctx, p.OrderID)
		if err != nil {
			return fmt.Errorf("read order %d: %w", p.OrderID, err)
		}
		if o.Status == domain.OrderPaid || o.Status == domain.OrderUsed {
			return u.c.awardPaid(ctx, o)
		}
	case SettledRefundDue:
		u.c.log.Info("payment arrived after its order stopped waiting; refunding", slog.Int64("payment_id", p.ID),
			slog.Int64("order_id", st.Order.ID), slog.String("order_status", string(st.Order.Status)))
		if u.c.refund(ctx, st.Payment, refundReasonLate) {
			u.c.publish(ctx, st.Order, domain.EventPaymentRefunded)
		} else {
			u.c.publish(ctx, st.Order, domain.EventPaymentRefunding)
		}
	}
	return nil
}

// awardPaid awards the buyer of a paid order its credits, once per order.
func (c *core) awardPaid(ctx context.Context, o domain.VoucherOrder) error {
	a := domain.OrderAward(o)
	if c.d.Credits == nil || a.Amount == 0 {
		return nil
	}
	if _, err := c.d.Credits.Award(context.WithoutCancel(ctx), a); err != nil {
		return fmt.Errorf("award the credits of order %d: %w", o.ID, err)
	}
	return nil
}

// refundReasonLate is given to the provider for a payment that came too late.
const refundReasonLate = "the order was no longer awaiting payment"

// refund sends a REFUND_PENDING payment's refund to the provider and records it,
// reporting whether it is REFUNDED now; on failure it stays REFUND_PENDING for the
// RefundWorker (which tells the order's subscribers once it is refunded).
func (c *core) refund(ctx context.Context, p domain.Payment, reason string) bool {
	ctx = context.WithoutCancel(ctx)
	if err := c.d.Provider.Refund(ctx, p, reason); err != nil {
		c.log.Warn("refund not sent; it will be retried", slog.Int64("payment_id", p.ID), slog.Any("error", err))
		return false
	}
	done, err := c.d.Payments.MarkRefunded(ctx, p.ID, c.now())
	if err != nil {
		c.log.Warn("refund sent but not recorded; it will be retried", slog.Int64("payment_id", p.ID), slog.Any("error", err))
		return false
	}
	return done
}

// CancelOrder cancels an unpaid order.
type CancelOrder struct{ c *core }

// Handle cancels the caller's CREATED order (reason BUYER); a flash sale's unit goes
// back to the sale. Errors: NOT_FOUND; CONFLICT in any other status.
func (u *CancelOrder) Handle(ctx context.Context, a domain.Actor, orderID int64) (domain.VoucherOrder, error) {
	o, err := u.c.ownOrder(ctx, a, orderID)
	if err != nil {
		return domain.VoucherOrder{}, err
	}
	if _, err := o.Cancel(); err != nil {
		return domain.VoucherOrder{}, err
	}
	t := Move(domain.OrderCancel, o.ID, u.c.now())
	t.CancelReason, t.Line = domain.CancelByBuyer, u.c.d.Sales.LineHold()
	after, changed, err := u.c.d.Orders.Transition(ctx, t)
	if err != nil {
		return domain.VoucherOrder{}, err
	}
	if !changed {
		return domain.VoucherOrder{}, refused(after, domain.OrderCancel)
	}
	u.c.returnUnits(ctx, after.VoucherID, []domain.VoucherOrder{after})
	u.c.publish(ctx, after, string(domain.CancelByBuyer))
	return after, nil
}

// RequestRefund refunds a paid order that was not used.
type RequestRefund struct{ c *core }

// Handle refunds the caller's PAID order: it becomes REFUNDED, the price of its units
// not redeemed goes back through the provider (units already redeemed stay sold), its
// credits are taken back from the buyer, and a flash sale's unit goes back to the sale.
// Errors: NOT_FOUND; CONFLICT in any other status (a USED order has no unit left to
// refund).
func (u *RequestRefund) Handle(ctx context.Context, a domain.Actor, orderID int64, reason string) (domain.VoucherOrder, error) {
	o, err := u.c.ownOrder(ctx, a, orderID)
	if err != nil {
		return domain.VoucherOrder{}, err
	}
	if _, err := o.Refund(); err != nil {
		return domain.VoucherOrder{}, err
	}
	if len([]rune(reason)) > 255 {
		return domain.VoucherOrder{}, domain.Errorf(domain.CodeBadUserInput, "reason: at most 255 characters")
	}
	payments, err := u.c.d.Payments.PaymentsOfOrder(ctx, o.ID)
	if err != nil {
		return domain.VoucherOrder{}, err
	}
	t := Move(domain.OrderRefund, o.ID, u.c.now())
	t.RefundReason, t.Line = reason, u.c.d.Sales.LineHold()
	var paid *domain.Payment
	for i := range payments {
		if payments[i].Status == domain.PaymentSucceeded {
			paid = &payments[i]
			t.Payment = &PaymentMove{PaymentID: paid.ID, From: []domain.PaymentStatus{domain.PaymentSucceeded},
				To: domain.PaymentRefundPending, Reason: reason, Refund: true}
			break
		}
	}
	after, changed, err := u.c.d.Orders.Transition(ctx, t)
	if err != nil {
		return domain.VoucherOrder{}, err
	}
	if !changed {
		return domain.VoucherOrder{}, refused(after, domain.OrderRefund)
	}
	if paid != nil {
		// As the transition left it: what goes back was counted there.
		if p, err := u.c.d.Payments.Payment(ctx, paid.ID); err != nil {
			u.c.log.Warn("refund not sent; it will be retried", slog.Int64("payment_id", paid.ID), slog.Any("error", err))
		} else {
			u.c.refund(ctx, p, reason)
		}
	}
	u.c.soldChanged(ctx, after)
	if u.c.d.Credits != nil {
		if _, err := u.c.d.Credits.Revoke(context.WithoutCancel(ctx), after.UserID, domain.CreditOrder, after.ID); err != nil {
			u.c.log.Warn("a refunded order's credits were not taken back", slog.Int64("order_id", after.ID), slog.Any("error", err))
		}
	}
	u.c.returnUnits(ctx, after.VoucherID, []domain.VoucherOrder{after})
	u.c.publish(ctx, after, "")
	return after, nil
}

// RedeemOrder uses a paid order at the shop.
type RedeemOrder struct{ c *core }

// Handle redeems quantity units of the PAID order with a redemption code at a shop the
// actor runs: the order becomes USED when no unit is left after them (a 1-unit order at
// once) and stays PAID, its code valid, while some are.
//
// requestID, when not nil, is the client's key of this redemption, 1–64 characters of
// [A-Za-z0-9_-]: the store records it with the units in the transaction that redeems
// them, and a redemption the order has recorded under it redeems nothing more — it
// answers the order as it stands, however late and however many copies race.
//
// Errors: BAD_USER_INPUT for a quantity below 1, a malformed requestID, and a requestID
// the order recorded with another quantity; NOT_FOUND for an unknown code and for a
// code of a shop the actor does not run; CONFLICT when the order is not PAID (already
// used, refunded) or has fewer units left.
func (u *RedeemOrder) Handle(ctx context.Context, a domain.Actor, code string, quantity int, requestID *string) (domain.VoucherOrder, error) {
	if err := loggedIn(a); err != nil {
		return domain.VoucherOrder{}, err
	}
	if quantity < 1 {
		return domain.VoucherOrder{}, domain.Errorf(domain.CodeBadUserInput, "quantity must be at least 1")
	}
	key := ""
	if requestID != nil {
		if !validRequestID(*requestID) {
			return domain.VoucherOrder{}, domain.Errorf(domain.CodeBadUserInput, "requestId must be 1 to %d characters of A-Z, a-z, 0-9, _ and -", maxRequestIDLen)
		}
		key = *requestID
	}
	code = strings.ToUpper(strings.TrimSpace(code))
	if len(code) != domain.RedemptionCodeLen {
		return domain.VoucherOrder{}, domain.Errorf(domain.CodeNotFound, "no such redemption code")
	}
	o, err := u.c.d.Orders.OrderByCode(ctx, code)
	if errors.Is(err, domain.ErrNotFound) {
		return domain.VoucherOrder{}, domain.Errorf(domain.CodeNotFound, "no such redemption code")
	}
	if err != nil {
		return domain.VoucherOrder{}, err
	}
	owner, err := u.c.d.Shops.ShopOwner(ctx, o.ShopID)
	if err != nil && !errors.Is(err, domain.ErrNotFound) {
		return domain.VoucherOrder{}, err
	}
	if !a.CanRunShop(owner) {
		return domain.VoucherOrder{}, domain.Errorf(domain.CodeNotFound, "no such redemption code")
	}
	// Refused at once without a key; with one, the request may have come before and
	// taken the units that are missing now, which the store knows.
	if _, err := o.RedeemUnits(quantity); err != nil && key == "" {
		return domain.VoucherOrder{}, err
	}
	t := Move(domain.OrderRedeem, o.ID, u.c.now())
	t.Units, t.RequestID = quantity, key
	after, changed, err := u.c.d.Orders.Transition(ctx, t)
	if before := (*RedeemedBefore)(nil); errors.As(err, &before) {
		// This request came before (or a copy of it raced this one): answer again.
		if before.Units != quantity {
			return domain.VoucherOrder{}, domain.Errorf(domain.CodeBadUserInput,
				"requestId %s redeemed %d units of this order, not %d: a requestId names one request", key, before.Units, quantity)
		}
		return before.Order, nil
	}
	if err != nil {
		return domain.VoucherOrder{}, err
	}
	if !changed {
		// Another redemption or a refund came first: say why as the order stands now.
		_, err := after.RedeemUnits(quantity)
		if err == nil {
			err = refused(after, domain.OrderRedeem)
		}
		return domain.VoucherOrder{}, err
	}
	if after.Status == domain.OrderUsed {
		u.c.publish(ctx, after, "")
	}
	return after, nil
}

// maxRequestIDLen is the longest key a redemption may carry (the column's width).
const maxRequestIDLen = 64

// validRequestID reports whether id is a redemption's key: 1–64 characters of
// [A-Za-z0-9_-], so that keys are compared byte for byte on every database.
func validRequestID(id string) bool {
	if id == "" || len(id) > maxRequestIDLen {
		return false
	}
	for _, c := range []byte(id) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}
