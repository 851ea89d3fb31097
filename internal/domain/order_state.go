package domain

// OrderAction is one step of an order's life. Its value is the verb a refusal names
// ("cannot pay an order that is USED").
type OrderAction string

// Order actions: every move an order can make, each a row of the transition table.
const (
	// OrderWrite writes the order of an accepted claim or a purchase that has a price:
	// it waits for payment (CREATED).
	OrderWrite OrderAction = "write"
	// OrderWriteFree writes the order of a voucher that costs nothing: there is nothing
	// to wait for, so it is PAID at once, with a redemption code.
	OrderWriteFree OrderAction = "write free"
	// OrderFail records that an accepted claim's order could not be written.
	OrderFail OrderAction = "fail"
	// OrderPay records the payment of an order waiting for it.
	OrderPay OrderAction = "pay"
	// OrderCancel is the buyer canceling an unpaid order; a flash sale's unit goes back.
	OrderCancel OrderAction = "cancel"
	// OrderExpire cancels an unpaid order at its pay deadline; a flash sale's unit goes
	// back.
	OrderExpire OrderAction = "expire"
	// OrderRefund gives a paid, unused order's money back; a flash sale's unit goes back.
	OrderRefund OrderAction = "refund"
	// OrderRedeem uses a paid order at the shop.
	OrderRedeem OrderAction = "redeem"
)

// OrderMove is one row of the order's transition table: the statuses an action may
// start from and the status it leads to.
type OrderMove struct {
	Action OrderAction
	From   []OrderStatus
	To     OrderStatus
}

// ReturnsUnit reports whether the move gives a written flash-sale order's unit back to
// its sale: it leads from a written order to a status that holds none. (A claim that
// fails never took a unit from the database; what it gives back to the gate depends
// on why it failed.)
func (m OrderMove) ReturnsUnit() bool { return !m.To.HoldsUnit() && !m.Allows(OrderPending) }

// Allows reports whether the move may start from s.
func (m OrderMove) Allows(s OrderStatus) bool {
	for _, f := range m.From {
		if f == s {
			return true
		}
	}
	return false
}

// orderMoves is the order's state machine, the one place it is written down:
//
//	PENDING ─▶ CREATED ─▶ PAID ─▶ USED
//	   │          │          └──▶ REFUNDED
//	   ▼          └──▶ CANCELED (by the buyer, or the payment deadline passed)
//	 FAILED
//
// PENDING is a claim accepted by the gate and not yet written; its row is written
// CREATED, or PAID straight away when it costs nothing (OrderWriteFree), or FAILED.
var orderMoves = [...]OrderMove{
	{OrderWrite, []OrderStatus{OrderPending}, OrderCreated},
	{OrderWriteFree, []OrderStatus{OrderPending}, OrderPaid},
	{OrderFail, []OrderStatus{OrderPending}, OrderFailed},
	{OrderPay, []OrderStatus{OrderCreated}, OrderPaid},
	{OrderCancel, []OrderStatus{OrderCreated}, OrderCanceled},
	{OrderExpire, []OrderStatus{OrderCreated}, OrderCanceled},
	{OrderRefund, []OrderStatus{OrderPaid}, OrderRefunded},
	{OrderRedeem, []OrderStatus{OrderPaid}, OrderUsed},
}

// OrderMoves returns the transition table, one row per action.
func OrderMoves() []OrderMove {
	out := make([]OrderMove, len(orderMoves))
	for i, m := range orderMoves {
		m.From = append([]OrderStatus(nil), m.From...)
		out[i] = m
	}
	return out
}

// MoveOf returns the table's row for action a; it panics on an action not in the
// table (a programming error).
func MoveOf(a OrderAction) OrderMove {
	for _, m := range orderMoves {
		if m.Action == a {
			m.From = append([]OrderStatus(nil), m.From...)
			return m
		}
	}
	panic("domain: no order action " + string(a))
}

// WriteAction is how an order of amount (in cents) is written: a free one is paid at
// once (OrderWriteFree), any other waits for payment (OrderWrite). It is the one place
// the rule is decided; the order writer's SQL asks for both statuses.
func WriteAction(amount int64) OrderAction {
	if amount == 0 {
		return OrderWriteFree
	}
	return OrderWrite
}

// MoveRefused is the CONFLICT of action a on an order in status s.
func MoveRefused(s OrderStatus, a OrderAction) *Error {
	return StatusConflict(s, "cannot %s an order that is %s", a, s)
}

// Next returns the status action a leads o to, or the CONFLICT (MoveRefused) when o's
// status does not allow it.
func (o VoucherOrder) Next(a OrderAction) (OrderStatus, error) {
	m := MoveOf(a)
	if !m.Allows(o.Status) {
		return o.Status, MoveRefused(o.Status, a)
	}
	return m.To, nil
}

// Pay returns the status paying o leads to (PAID), or a CONFLICT.
func (o VoucherOrder) Pay() (OrderStatus, error) { return o.Next(OrderPay) }

// Cancel returns the status the buyer's cancel leads o to (CANCELED), or a CONFLICT.
func (o VoucherOrder) Cancel() (OrderStatus, error) { return o.Next(OrderCancel) }

// Expire returns the status o's pay deadline leads it to (CANCELED), or a CONFLICT.
func (o VoucherOrder) Expire() (OrderStatus, error) { return o.Next(OrderExpire) }

// Refund returns the status refunding o leads to (REFUNDED), or a CONFLICT.
func (o VoucherOrder) Refund() (OrderStatus, error) { return o.Next(OrderRefund) }

// Redeem returns the status redeeming o leads to (USED), or a CONFLICT.
func (o VoucherOrder) Redeem() (OrderStatus, error) { return o.Next(OrderRedeem) }

// Fail returns the status a claim's failed write leads o to (FAILED), or a CONFLICT.
func (o VoucherOrder) Fail() (OrderStatus, error) { return o.Next(OrderFail) }

// Written returns the status o's write leads it to: PAID when it costs nothing, CREATED
// otherwise (WriteAction), or a CONFLICT when o is not PENDING.
func (o VoucherOrder) Written() (OrderStatus, error) { return o.Next(WriteAction(o.Amount)) }
