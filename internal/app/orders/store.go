package orders

import (
	"context"
	"fmt"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// OrderStore holds voucher orders: the one port through which every order row is
// written, moved and read — the flash sale's claims (package seckill's order writer,
// reconciler and queries) as well as purchases, payments, refunds, expiry and
// redemption here. Every change is one transaction; concurrent callers on several nodes
// never both win a transition. The statuses an order moves between are the domain's
// transition table (domain.OrderMoves).
type OrderStore interface {
	// WriteClaims writes the orders of claims in one transaction: orders that exist are
	// left as they are, each voucher's database stock goes down by the orders added and
	// never below zero. A new order records its voucher's shop and price (amount) and is
	// written as domain.WriteAction says: CREATED with a pay deadline payWithin after its
	// claim (domain.PayDeadline), or PAID (with a redemption code) when the voucher costs
	// nothing — its unit then counts in its shop's sold. Any error means nothing was
	// written.
	WriteClaims(ctx context.Context, claims []domain.Claim, payWithin time.Duration) (BatchResult, error)
	// FailClaim records c's order as FAILED, with reason, unless an order with that id
	// exists; it returns the order as it now stands.
	FailClaim(ctx context.Context, c domain.Claim, reason string) (domain.VoucherOrder, error)
	// CreateOrder stores one order under the id the application gave it, as given (a
	// NORMAL voucher's order: CREATED with a pay deadline, or PAID with a redemption code
	// when its amount is 0 — its units then count in its shop's sold, in the same
	// transaction); an empty status means CREATED. Errors: BAD_USER_INPUT for an id ≤ 0
	// or an unknown status; CONFLICT for a reused id or a second live flash-sale order of
	// one user.
	CreateOrder(ctx context.Context, o domain.VoucherOrder) (domain.VoucherOrder, error)
	// Order returns one order, or domain.ErrNotFound.
	Order(ctx context.Context, id int64) (domain.VoucherOrder, error)
	// OrderByCode returns the order with that redemption code, or domain.ErrNotFound.
	OrderByCode(ctx context.Context, code string) (domain.VoucherOrder, error)
	// WrittenOrders returns those of ids that are orders in the database, in any order.
	WrittenOrders(ctx context.Context, ids []int64) ([]int64, error)
	// OrdersOfUser returns up to limit orders of a user with id < before (0: from the
	// newest), newest first, with a status in statuses (empty: any).
	OrdersOfUser(ctx context.Context, userID int64, statuses []domain.OrderStatus, before int64, limit int) ([]domain.VoucherOrder, error)
	// OrdersOfShop returns up to limit orders of the shop with id < before (0: from the
	// newest), newest first, with a status in statuses (empty: any).
	OrdersOfShop(ctx context.Context, shopID int64, statuses []domain.OrderStatus, before int64, limit int) ([]domain.VoucherOrder, error)
	// LiveHolders lists the users holding an order of the voucher that holds a unit
	// (PENDING, CREATED, PAID, USED); withReleased adds the users of CANCELED and
	// REFUNDED orders (when a user may not claim a sale again after giving it back).
	LiveHolders(ctx context.Context, voucherID int64, withReleased bool) ([]int64, error)
	// SaleStock returns the flash sale's stock in the database: what WriteClaims takes
	// and the transitions that release an order give back.
	SaleStock(ctx context.Context, voucherID int64) (int64, error)
	// CountOrders counts the voucher's orders that hold a unit, the failed and the
	// released ones, and the distinct users holding a unit.
	CountOrders(ctx context.Context, voucherID int64) (OrderCounts, error)
	// CountByStatus counts a voucher's written orders by status, and those created at
	// or after since (for the claim rate).
	CountByStatus(ctx context.Context, voucherID int64, since time.Time) (counts map[domain.OrderStatus]int64, recent int64, err error)
	// Transition applies t. changed is false (and the order returned as it stands) when
	// its status is not in t.From (or, redeeming, fewer than t.Units units are left);
	// domain.ErrNotFound when there is no such order; a *RedeemedBefore when t is a
	// redemption under a RequestID the order has recorded (nothing moves, whatever the
	// order's status). The shop's sold count moves with the order in the same
	// transaction: up by the order's units on a move to PAID, down by the units not
	// redeemed on a move to REFUNDED.
	Transition(ctx context.Context, t Transition) (o domain.VoucherOrder, changed bool, err error)
	// ExpireDue applies domain.OrderExpire (reason TIMEOUT, at now) to up to limit orders
	// whose pay deadline is at or before now, returning their FLASH_SALE units to their
	// sales (routed by line, as Transition.Line routes them), in one transaction, and
	// returns the orders it canceled. Callers on several nodes at once cancel disjoint
	// orders (no order twice).
	ExpireDue(ctx context.Context, now time.Time, limit int, line LineHold) ([]domain.VoucherOrder, error)
}

// Transition moves one order from one of From to To, in one conditional step
// (UPDATE … WHERE id = ? AND status IN From): of two transitions racing on an order,
// exactly one wins. Move builds it from a row of the domain's transition table.
type Transition struct {
	OrderID int64
	From    []domain.OrderStatus
	To      domain.OrderStatus
	At      time.Time
	// CancelReason is recorded on a move to CANCELED.
	CancelReason domain.CancelReason
	// RefundReason is recorded on a move to REFUNDED.
	RefundReason string
	// RedemptionCode is recorded on a move to PAID.
	RedemptionCode string
	// Units, on the redeem move, is how many units are redeemed: the order moves to To
	// only when none is left after them and stays PAID (its redeemed units counted, the
	// time recorded) while some are; the move does not happen (changed false) when fewer
	// are left. 0 redeems every unit left.
	Units int
	// RequestID, on the redeem move, is the client's key of the redemption: recorded
	// with its Units in the same transaction when the move happens, so that a request
	// sent again never redeems twice — a move under a key the order has recorded does
	// not happen (Transition answers *RedeemedBefore), however many copies of it race.
	// A move that does not happen records nothing. Empty: no key.
	RequestID string
	// ReturnUnit gives a FLASH_SALE order's unit back to its sale's database stock in
	// the same transaction, on a move to a status that holds none (CANCELED, REFUNDED).
	// Ignored for NORMAL orders.
	ReturnUnit bool
	// Line routes that unit: see LineHold.
	Line LineHold
	// Payment, when set, is moved in the same transaction: see PaymentMove.
	Payment *PaymentMove
}

// LineHold says where a unit a released FLASH_SALE order gives back goes, in the
// transaction that releases the order (the sale's owner decides it: Sales.LineHold).
// With OfferTTL > 0 and the sale not ended at the move's time, the unit is held for the
// first user waiting in the sale's waitlist whose user holds no live order of it (places
// of users who do are closed PASSED on the way), until OfferTTL after the move, keyed by
// the released order's id — it never enters the stock, so nothing (a claim, the
// reconciler's repair, a crash) can take it between the release and the hold (I8).
// When nobody waits, or OfferTTL is 0, it goes back to the sale's database stock.
type LineHold struct {
	OfferTTL time.Duration
}

// RedeemedBefore is Transition's answer to a redemption under a request id the order
// has recorded: the request was made before, and nothing moved this time.
type RedeemedBefore struct {
	// Order is the order as it stands.
	Order domain.VoucherOrder
	// Units is how many units the request redeemed when it was made.
	Units int
}

func (e *RedeemedBefore) Error() string {
	return fmt.Sprintf("order %d: this request redeemed %d units before", e.Order.ID, e.Units)
}

// Move is the transition of action a on order orderID at at, as the domain's table
// says: from the statuses a may start from, to the one it leads to, giving the unit
// back when a does.
func Move(a domain.OrderAction, orderID int64, at time.Time) Transition {
	m := domain.MoveOf(a)
	return Transition{OrderID: orderID, From: m.From, To: m.To, At: at, ReturnUnit: m.ReturnsUnit()}
}

// PaymentMove changes a payment's status alongside an order's transition, in the same
// transaction and only if the order's transition wins.
type PaymentMove struct {
	PaymentID int64
	From      []domain.PaymentStatus
	To        domain.PaymentStatus
	// Reason is recorded as the payment's refund reason.
	Reason string
	// Refund records what goes back (the payment's refund amount): the price of the
	// order's units not redeemed, as the order stands in the transaction
	// (domain.VoucherOrder.RefundAmount).
	Refund bool
}

// BatchResult is what writing a batch of claims did.
type BatchResult struct {
	// Created are the claims whose orders now exist (new or written before).
	Created []domain.Claim
	// Duplicate are claims of users who already hold another live order of the voucher.
	Duplicate []domain.Claim
	// NoStock are claims the database stock could not cover.
	NoStock []domain.Claim
	// IDTaken are claims whose order id belongs to an order of another user or voucher
	// (an id handed out twice): that order is not theirs, and nothing was written.
	IDTaken []domain.Claim
	// Status is, for each claim in Created (by order id), its order's status as it
	// stands: CREATED, PAID for a voucher that costs nothing, or a later status for a
	// claim delivered again after its order moved on.
	Status map[int64]domain.OrderStatus
}

// OrderCounts summarises a voucher's orders.
type OrderCounts struct {
	// Created counts the orders that hold a unit: CREATED, PAID or USED (I5).
	Created int64
	Failed  int64
	// LiveUsers is the number of distinct users holding such an order.
	LiveUsers int64
	// Released counts the CANCELED and REFUNDED orders, whose units went back.
	Released int64
}
