package orders

import (
	"context"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// Outcome of a payment notification applied to the store.
type SettleOutcome int

// Outcomes.
const (
	// SettledPaid: the payment succeeded and its order moved CREATED → PAID.
	SettledPaid SettleOutcome = iota
	// SettledAgain: the payment had been settled before (a repeated notification);
	// nothing changed.
	SettledAgain
	// SettledRefundDue: the payment succeeded but its order was no longer CREATED
	// (canceled, or paid by another payment): the payment is now REFUND_PENDING.
	SettledRefundDue
	// SettledFailed: the provider reported the payment failed; it is now FAILED and the
	// order stays as it was.
	SettledFailed
)

// Settlement is what a payment notification did.
type Settlement struct {
	Outcome SettleOutcome
	Payment domain.Payment
	Order   domain.VoucherOrder
}

// PaymentStore holds the payments of orders: their own rows, each moved in one
// transaction with the order it pays when it settles (through the order store's
// transitions, so the order's moves stay the domain's table).
type PaymentStore interface {
	// CreatePayment stores p (PENDING) for its order, unless the order already has a
	// PENDING payment: then that one is returned and created is false.
	CreatePayment(ctx context.Context, p domain.Payment) (stored domain.Payment, created bool, err error)
	// SetProviderRef records the provider's id of a payment.
	SetProviderRef(ctx context.Context, paymentID int64, ref string) error
	// Payment returns one payment, or domain.ErrNotFound.
	Payment(ctx context.Context, id int64) (domain.Payment, error)
	// PaymentsOfOrder lists an order's payments, oldest first.
	PaymentsOfOrder(ctx context.Context, orderID int64) ([]domain.Payment, error)
	// PaymentsOfOrders lists the payments of several orders, by order, each order's
	// oldest first, with one query; orders without payments are left out.
	PaymentsOfOrders(ctx context.Context, orderIDs []int64) (map[int64][]domain.Payment, error)
	// OpenPayment reports whether one of the order's payments still moves money:
	// PENDING or REFUND_PENDING (domain.PaymentStatus.Open).
	OpenPayment(ctx context.Context, orderID int64) (bool, error)
	// SettlePayment applies a provider's verdict on a PENDING payment in one
	// transaction: succeeded → the payment SUCCEEDED and its order paid (domain.OrderPay,
	// with code, at) — or, when the order may no longer be paid, the payment
	// REFUND_PENDING with its whole amount to give back; failed → the payment FAILED,
	// with reason (the provider's). A payment no longer PENDING is left alone
	// (SettledAgain). domain.ErrNotFound for an unknown payment.
	SettlePayment(ctx context.Context, paymentID int64, succeeded bool, at time.Time, code, reason string) (Settlement, error)
	// RefundsDue lists up to limit REFUND_PENDING payments, oldest first.
	RefundsDue(ctx context.Context, limit int) ([]domain.Payment, error)
	// MarkRefunded moves a REFUND_PENDING payment to REFUNDED (false: it was not
	// REFUND_PENDING).
	MarkRefunded(ctx context.Context, paymentID int64, at time.Time) (bool, error)
}

// Sales is the flash sale's side of its orders: the sale's stock lives there (package
// seckill implements it), and this package never reaches the stock itself.
type Sales interface {
	// ReturnUnits gives the units of released (canceled or refunded) orders of one sale
	// back to it — at most once per order id however often it is called; orders that
	// are not flash-sale ones give nothing back — and, when freeSlot, lets each order's
	// user claim the sale again. A sale that got units back is open again on every node.
	// It returns how many units went back now; an error means some may not have (the
	// database has them already; the flash sale's reconciler repairs the rest).
	//
	// A unit its release held for the sale's waitlist (LineHold) is not given to the
	// stock again: it is announced to the user it is held for, and its order's user's slot
	// is freed as the others' are.
	ReturnUnits(ctx context.Context, voucherID int64, released []domain.VoucherOrder, freeSlot bool) (int, error)
	// LineHold is how the units of orders released now are routed in their releases'
	// transactions: held for the sales' waitlists (when there are waitlists), or back to
	// the stock.
	LineHold() LineHold
	// Live reads a sale's live numbers.
	Live(ctx context.Context, voucherID int64) (LiveSale, error)
}

// LiveSale is a flash sale's live numbers.
type LiveSale struct {
	// Stock is the stock left; Loaded is false when the sale's stock is not live (then
	// the database's count stands).
	Stock  int64
	Loaded bool
	// Pending counts the sale's accepted claims whose orders are not written yet.
	Pending int64
}

// PaymentProvider collects and refunds money. Its verdict on a payment arrives later as
// a signed notification, which the transport verifies and hands to Payments.Notify.
type PaymentProvider interface {
	// Name names the provider (stored with each payment).
	Name() string
	// CreatePayment asks the provider to collect p.Amount for p (its id is the
	// idempotency key); it returns the provider's id of the payment.
	CreatePayment(ctx context.Context, p domain.Payment) (ref string, err error)
	// Refund gives a succeeded payment's money back; asking twice for one payment
	// refunds once.
	Refund(ctx context.Context, p domain.Payment, reason string) error
}

// Notification is a provider's verified word on a payment.
type Notification struct {
	PaymentID   int64
	ProviderRef string
	// Succeeded is true when the money was collected, false when the payment failed.
	Succeeded bool
	// Reason is why the provider declined a payment that failed (may be empty).
	Reason string
	// Amount is what the provider collected, in cents.
	Amount int64
	At     time.Time
}

// StatusPublisher tells every node that orders changed status (the orderStatus
// subscriptions listen).
type StatusPublisher interface {
	Publish(ctx context.Context, events ...domain.OrderEvent) error
}

// Notifier hands what happened to orders to their buyers' inboxes, which write the
// notifications later: Notify never waits for them and never fails the move.
type Notifier interface {
	Notify(ctx context.Context, e domain.NotificationEvent)
}

// SoldChanges is told that shops' sold counts moved (in the database, with the order
// moves that moved them), so that their cached copies are refreshed. It never fails a
// move: a copy it cannot refresh is served until it expires.
type SoldChanges interface {
	SoldChanged(ctx context.Context, shopIDs ...int64)
}

// Vouchers reads vouchers.
type Vouchers interface {
	// Voucher returns one voucher with its flash sale, or domain.ErrNotFound.
	Voucher(ctx context.Context, id int64) (domain.Voucher, error)
}

// Shops reads who runs a shop.
type Shops interface {
	// ShopOwner returns the shop's owner (0: none), or domain.ErrNotFound.
	ShopOwner(ctx context.Context, shopID int64) (int64, error)
}

// IDGenerator hands out ids: 64-bit, time-ordered, unique across nodes.
type IDGenerator interface {
	NextID(ctx context.Context) (int64, error)
}

// Credits award buyers the credits of their paid orders and take them back on refund
// (the relational store's credit awards).
type Credits interface {
	// Award stores award unless an award with its key (user, reason, reference) was
	// stored or taken back already, adding its amount to the user's credits in the same
	// transaction; it reports whether it did.
	Award(ctx context.Context, award domain.CreditAward) (bool, error)
	// Revoke takes the award with that key back, taking its amount off the user's
	// credits, and keeps the key taken; it reports whether there was an amount to take
	// back.
	Revoke(ctx context.Context, userID int64, reason domain.CreditReason, ref int64) (bool, error)
}
