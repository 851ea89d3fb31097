package seckill

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// OrderQueries read a user's orders and follow their status.
type OrderQueries struct {
	c *core
	// rereads bounds the concurrent re-reads of subscribed orders.
	rereads chan struct{}
	// watches re-reads each subscribed order once for all its subscriptions.
	watches orderWatches
}

// Order returns one of the user's orders: the written order, or a PENDING one from its
// reservation while the order is on its way. found is false for an unknown id and for
// anyone else's order.
func (q *OrderQueries) Order(ctx context.Context, userID, orderID int64) (domain.VoucherOrder, bool, error) {
	if userID <= 0 {
		return domain.VoucherOrder{}, false, domain.Errorf(domain.CodeUnauthenticated, "log in first")
	}
	if orderID <= 0 {
		return domain.VoucherOrder{}, false, nil
	}
	if o, found, err := q.writtenOrder(ctx, userID, orderID); err != nil || found {
		return o, found, err
	}
	// Not written yet: look for its reservation.
	r, ok, err := q.c.d.Stock.Pending(ctx, orderID)
	if err != nil {
		return domain.VoucherOrder{}, false, err
	}
	if ok {
		if r.UserID != userID {
			return domain.VoucherOrder{}, false, nil
		}
		return q.pendingOrder(ctx, domain.Claim{OrderID: orderID, UserID: userID, VoucherID: r.VoucherID, ClaimedAt: r.At}, nil), true, nil
	}
	// A reservation is settled only after its order is committed, so an order written
	// while we looked is in the database now.
	switch o, err := q.c.d.Orders.Order(ctx, orderID); {
	case err == nil:
		// Written — or the id is another claim's order, which this claim never gets.
		return o, o.UserID == userID, nil
	case !errors.Is(err, domain.ErrNotFound):
		return domain.VoucherOrder{}, false, fmt.Errorf("read order %d: %w", orderID, err)
	}
	// Neither written nor reserved: Redis may have lost the reservation of a claim this
	// node accepted, still on its way (see AcceptedClaims).
	if c, ok := q.c.accepted.get(orderID); ok && c.UserID == userID {
		return q.pendingOrder(ctx, c, nil), true, nil
	}
	return domain.VoucherOrder{}, false, nil
}

// pendingOrder is the PENDING order of claim c as its order will be written: the sale's
// price (quantity 1) and shop and, when it costs something, the pay deadline the order
// writer gives it (domain.PayDeadline, from the claim). The sale is read through the
// voucher cache (the claim path's), once per sale when seen holds the sales already read;
// when it cannot be read now, the order is shown without them rather than not at all.
func (q *OrderQueries) pendingOrder(ctx context.Context, c domain.Claim, seen map[int64]domain.Voucher) domain.VoucherOrder {
	o := domain.VoucherOrder{ID: c.OrderID, UserID: c.UserID, VoucherID: c.VoucherID, Kind: domain.VoucherFlashSale, Quantity: 1,
		Status: domain.OrderPending, CreatedAt: c.ClaimedAt}
	if v, ok := seen[c.VoucherID]; ok {
		return q.priced(o, v)
	}
	v, found, err := q.c.voucher(ctx, c.VoucherID)
	if err != nil {
		q.c.log.Warn("a pending order is shown without its price", slog.Int64("order_id", c.OrderID), slog.Any("error", err))
		return o
	}
	if !found {
		return o // deleted meanwhile: its order will fail
	}
	if seen != nil {
		seen[c.VoucherID] = v
	}
	return q.priced(o, v)
}

// priced is pending order o with the price and pay deadline of its sale v.
func (q *OrderQueries) priced(o domain.VoucherOrder, v domain.Voucher) domain.VoucherOrder {
	o.ShopID, o.Amount = v.ShopID, v.PayValue
	if domain.WriteAction(o.Amount) == domain.OrderWrite && q.c.cfg.PayTimeout > 0 {
		deadline := domain.PayDeadline(o.CreatedAt, q.c.cfg.PayTimeout)
		o.PayDeadline = &deadline
	}
	return o
}

// writtenOrder reads an order from the database; found is false when it is not there or
// belongs to someone else.
func (q *OrderQueries) writtenOrder(ctx context.Context, userID, orderID int64) (domain.VoucherOrder, bool, error) {
	o, err := q.c.d.Orders.Order(ctx, orderID)
	switch {
	case err == nil:
		return o, o.UserID == userID, nil
	case errors.Is(err, domain.ErrNotFound):
		return domain.VoucherOrder{}, false, nil
	}
	return domain.VoucherOrder{}, false, fmt.Errorf("read order %d: %w", orderID, err)
}

// OrderPage is one page of a user's orders, newest first.
type OrderPage struct {
	Orders      []domain.VoucherOrder
	HasNextPage bool
}

// MyOrders pages through the user's orders, newest first, with a status in statuses
// (empty: any); before is the id the previous page ended with (0: from the newest).
// Orders still on their way (PENDING) are listed from their reservations, so an order
// shows from the moment claimVoucher answers.
//
// The gate's reservations are read before the database: a reservation is settled only
// after its order is committed, so an order gone from the first read is in the second,
// and an order in both is listed once, as the database has it.
func (q *OrderQueries) MyOrders(ctx context.Context, userID int64, statuses []domain.OrderStatus, first int, before int64) (OrderPage, error) {
	if userID <= 0 {
		return OrderPage{}, domain.Errorf(domain.CodeUnauthenticated, "log in first")
	}
	size, err := q.c.cfg.Pages.Size(first)
	if err != nil {
		return OrderPage{}, err
	}
	var pending []domain.VoucherOrder
	if len(statuses) == 0 || slices.Contains(statuses, domain.OrderPending) {
		rs, err := q.c.d.Stock.PendingOfUser(ctx, userID)
		if err != nil {
			return OrderPage{}, fmt.Errorf("list pending orders: %w", err)
		}
		sales := map[int64]domain.Voucher{}
		for _, r := range rs {
			if before <= 0 || r.OrderID < before {
				pending = append(pending, q.pendingOrder(ctx, domain.Claim{OrderID: r.OrderID, UserID: userID, VoucherID: r.VoucherID,
					ClaimedAt: r.At}, sales))
			}
		}
	}
	written, err := q.c.d.Orders.OrdersOfUser(ctx, userID, statuses, before, size+1)
	if err != nil {
		return OrderPage{}, fmt.Errorf("list orders: %w", err)
	}
	// A pending order whose row was written meanwhile is listed as written — unless the
	// filter leaves its written status out, when it is listed at all only if its row is
	// not in the database yet.
	merged := written
	if len(pending) > 0 {
		ids := make(map[int64]bool, len(written))
		for _, o := range written {
			ids[o.ID] = true
		}
		for _, p := range pending {
			if ids[p.ID] {
				continue
			}
			if len(statuses) > 0 {
				if _, err := q.c.d.Orders.Order(ctx, p.ID); err == nil {
					continue // written, in a status the filter leaves out
				}
			}
			merged = append(merged, p)
		}
		slices.SortFunc(merged, func(a, b domain.VoucherOrder) int { return cmp.Compare(b.ID, a.ID) })
	}
	page := OrderPage{Orders: merged}
	if len(merged) > size {
		page.Orders, page.HasNextPage = merged[:size], true
	}
	return page, nil
}

// OrderStatus streams an order's status to its owner: the current status first, then
// each change and each event about the order's money (a reason domain.PaymentNotice
// names, the status unchanged), closing after a final status — USED, CANCELED, REFUNDED
// or FAILED — once none of the order's payments still moves money (or when ctx ends): a
// payment that succeeds after the order was canceled is refunded, and its subscribers
// are told. Errors: NOT_FOUND for an unknown id or anyone else's order.
//
// The status bus delivers at most once, so the subscription does not rely on it alone:
// when the bus asks (after a reconnect, events may have been lost) and every
// StatusRecheck until the order is final, the order is re-read as order(id) does and
// the status delivered if it changed. The subscriptions of one order on a node share
// those re-reads: one read per period, however many they are.
func (q *OrderQueries) OrderStatus(ctx context.Context, userID, orderID int64) (<-chan domain.OrderEvent, error) {
	// Listen before reading the current status, so a change in between is not lost.
	events, cancel, err := q.c.d.Status.Subscribe(ctx, orderID)
	if err != nil {
		return nil, fmt.Errorf("subscribe to order %d: %w", orderID, err)
	}
	o, found, err := q.Order(ctx, userID, orderID)
	if err != nil || !found {
		cancel()
		if err == nil {
			err = domain.Errorf(domain.CodeNotFound, "no such order")
		}
		return nil, err
	}
	out := make(chan domain.OrderEvent, 1)
	out <- domain.OrderEvent{OrderID: o.ID, UserID: o.UserID, VoucherID: o.VoucherID, Status: o.Status, Reason: o.FailReason, At: q.c.now()}
	if o.Status.Final() && !q.moneyMoving(ctx, o.ID, o.Status) {
		cancel()
		close(out)
		return out, nil
	}
	go func() {
		defer close(out)
		defer cancel()
		q.followOrder(ctx, userID, orderID, o.Status, events, out)
	}()
	return out, nil
}

// followOrder delivers each new status of the order to out, as the bus announces it or a
// re-read finds it, and each event about its money, until a final status with no money
// moving. A status is delivered once: an event or re-read that finds the status last
// delivered (or PENDING) is skipped unless the bus brings news of the money with it. A
// final order waiting for its money ends when a re-read finds it settled. The re-reads
// are the order's shared watcher's (order_watch.go).
func (q *OrderQueries) followOrder(ctx context.Context, userID, orderID int64, last domain.OrderStatus, events <-chan domain.OrderEvent, out chan<- domain.OrderEvent) {
	sub, leave := q.join(ctx, userID, orderID)
	defer leave()
	for {
		var e domain.OrderEvent
		select {
		case <-ctx.Done():
			return
		case e = <-sub.reads:
			if e.Status == last && last.Final() && !q.moneyMoving(ctx, orderID, last) {
				return // its money settled while the news of it was lost
			}
		case ev, ok := <-events:
			if !ok {
				return
			}
			if ev.Status == "" {
				// The bus may have lost events: the watcher's read comes on sub.reads.
				sub.rereadNow()
				continue
			}
			e = ev
		}
		if e.UserID != userID || e.Status == "" || e.Status == domain.OrderPending || (e.Status == last && !domain.PaymentNotice(e.Reason)) {
			continue
		}
		select {
		case out <- e:
			last = e.Status
		case <-ctx.Done():
			return
		}
		if e.Status.Final() && !q.moneyMoving(ctx, orderID, e.Status) {
			return
		}
	}
}

// moneyMoving reports whether an order in final status st may still see its money move:
// a CANCELED or REFUNDED order with a payment open (waiting for the provider, or being
// refunded). When that cannot be read now, it says yes: the subscription stays and a
// later event or re-read ends it.
func (q *OrderQueries) moneyMoving(ctx context.Context, orderID int64, st domain.OrderStatus) bool {
	if q.c.d.Payments == nil || (st != domain.OrderCanceled && st != domain.OrderRefunded) {
		return false
	}
	open, err := q.c.d.Payments.OpenPayment(ctx, orderID)
	if err != nil {
		q.c.log.Debug("cannot tell whether a subscribed order's money still moves", slog.Int64("order_id", orderID), slog.Any("error", err))
		return ctx.Err() == nil
	}
	return open
}

// rereadTimeout bounds one re-read of a subscribed order.
const rereadTimeout = 5 * time.Second

// reread reads a subscribed order as order(id) does; the zero event when it cannot be
// read now (a later re-read tries again) or is not (yet) found.
func (q *OrderQueries) reread(ctx context.Context, userID, orderID int64) domain.OrderEvent {
	select {
	case q.rereads <- struct{}{}:
		defer func() { <-q.rereads }()
	case <-ctx.Done():
		return domain.OrderEvent{}
	}
	ctx, cancel := context.WithTimeout(ctx, rereadTimeout)
	defer cancel()
	o, found, err := q.Order(ctx, userID, orderID)
	if err != nil {
		q.c.log.Debug("cannot re-read a subscribed order", slog.Int64("order_id", orderID), slog.Any("error", err))
		return domain.OrderEvent{}
	}
	if !found {
		return domain.OrderEvent{}
	}
	return domain.OrderEvent{OrderID: o.ID, UserID: o.UserID, VoucherID: o.VoucherID, Status: o.Status, Reason: o.FailReason, At: q.c.now()}
}

// jitter spreads d over [0.8d, 1.2d), so subscriptions opened together do not re-read
// together.
func jitter(d time.Duration) time.Duration {
	return d*8/10 + rand.N(d*4/10+1)
}

// newRereadLimit returns a semaphore of n re-reads (at least 1).
func newRereadLimit(n int) chan struct{} { return make(chan struct{}, max(1, n)) }
