package seckill

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// Reasons an order FAILED.
const (
	ReasonDuplicate = "already claimed"
	ReasonNoStock   = "sold out"
	ReasonPoison    = "the order could not be written"
	ReasonExpired   = "the order was not written in time"
	ReasonIDTaken   = "the order id belongs to another order"
)

// ProcessClaims writes the orders of a batch of claims (the queue consumer's handler).
// It is idempotent: a claim delivered again finds its order and reports it CREATED again.
// An error means nothing was written and the batch should be retried.
func (s *Service) ProcessClaims(ctx context.Context, claims []domain.Claim) error {
	if len(claims) == 0 {
		return nil
	}
	res, err := s.d.Orders.WriteClaims(ctx, claims)
	if err != nil {
		return fmt.Errorf("write %d orders: %w", len(claims), err)
	}
	byVoucher := map[int64][]int64{}
	for _, c := range res.Created {
		byVoucher[c.VoucherID] = append(byVoucher[c.VoucherID], c.OrderID)
	}
	for vid, ids := range byVoucher {
		if err := s.d.Gate.Settle(ctx, vid, ids); err != nil {
			// The reconciler settles reservations whose orders exist.
			s.log.Warn("cannot settle reservations", slog.Int64("voucher_id", vid), slog.Any("error", err))
		}
	}
	s.publish(ctx, domain.OrderCreated, "", res.Created...)
	// A duplicate user holds another order: give the unit back, keep the user's slot.
	for _, c := range res.Duplicate {
		s.fail(ctx, c, Release{Stock: true}, ReasonDuplicate)
	}
	// The database had no stock for these: Redis gave out more than it should (after a
	// rebuild), so the unit does not go back, only the user's slot.
	for _, c := range res.NoStock {
		s.fail(ctx, c, Release{Slot: true}, ReasonNoStock)
	}
	// The claim's id is another order's: nothing was written for it, so its unit and
	// the user's slot go back.
	for _, c := range res.IDTaken {
		s.fail(ctx, c, Release{Stock: true, Slot: true}, ReasonIDTaken)
	}
	return nil
}

// FailClaim gives up on a claim whose order cannot be written (the dead-letter path): the
// order is recorded FAILED and its stock and the user's slot go back. If the order was
// written after all, it stays CREATED.
func (s *Service) FailClaim(ctx context.Context, c domain.Claim, reason string) error {
	if reason == "" {
		reason = ReasonPoison
	}
	return s.fail(ctx, c, Release{Stock: true, Slot: true}, reason)
}

func (s *Service) fail(ctx context.Context, c domain.Claim, rel Release, reason string) error {
	o, err := s.d.Orders.FailClaim(ctx, c)
	if err != nil {
		return fmt.Errorf("record failed order %d: %w", c.OrderID, err)
	}
	if o.UserID != c.UserID || o.VoucherID != c.VoucherID {
		// The id is another claim's order: that order is not this claim's, and no
		// FAILED row can be recorded under its id.
		o.Status = domain.OrderFailed
	}
	if o.Status != domain.OrderFailed {
		// Written after all: it stands.
		if err := s.d.Gate.Settle(ctx, c.VoucherID, []int64{c.OrderID}); err != nil {
			s.log.Warn("cannot settle reservation", slog.Int64("order_id", c.OrderID), slog.Any("error", err))
		}
		s.publish(ctx, o.Status, "", c)
		return nil
	}
	dropped, err := s.d.Gate.Drop(ctx, c.VoucherID, c.OrderID, rel)
	if err != nil {
		return fmt.Errorf("return stock of failed order %d: %w", c.OrderID, err)
	}
	if dropped && rel.Stock {
		s.stockBack(ctx, c.VoucherID)
	}
	s.log.Warn("order failed", slog.Int64("order_id", c.OrderID), slog.Int64("voucher_id", c.VoucherID), slog.String("reason", reason))
	s.publish(ctx, domain.OrderFailed, reason, c)
	return nil
}

// publish tells every node that the claims' orders reached status.
func (s *Service) publish(ctx context.Context, status domain.OrderStatus, reason string, claims ...domain.Claim) {
	if len(claims) == 0 {
		return
	}
	now := s.now()
	events := make([]domain.OrderEvent, len(claims))
	for i, c := range claims {
		events[i] = domain.OrderEvent{OrderID: c.OrderID, UserID: c.UserID, VoucherID: c.VoucherID, Status: status, Reason: reason, At: now}
	}
	if err := s.d.Status.Publish(context.WithoutCancel(ctx), events...); err != nil {
		// Subscribers fall back on polling order(id).
		s.log.Warn("cannot publish order status", slog.Int("orders", len(claims)), slog.Any("error", err))
	}
}

// Order returns one of the user's orders: the written order, or a PENDING one from its
// reservation while the order is on its way. found is false for an unknown id and for
// anyone else's order.
func (s *Service) Order(ctx context.Context, userID, orderID int64) (domain.VoucherOrder, bool, error) {
	if userID <= 0 {
		return domain.VoucherOrder{}, false, domain.Errorf(domain.CodeUnauthenticated, "log in first")
	}
	if orderID <= 0 {
		return domain.VoucherOrder{}, false, nil
	}
	if o, found, err := s.writtenOrder(ctx, userID, orderID); err != nil || found {
		return o, found, err
	}
	// Not written yet: look for its reservation.
	r, ok, err := s.d.Gate.Pending(ctx, orderID)
	if err != nil {
		return domain.VoucherOrder{}, false, err
	}
	if ok {
		if r.UserID != userID {
			return domain.VoucherOrder{}, false, nil
		}
		return domain.VoucherOrder{ID: orderID, UserID: userID, VoucherID: r.VoucherID, Status: domain.OrderPending, CreatedAt: r.At}, true, nil
	}
	// A reservation is settled only after its order is committed, so an order written
	// while we looked is in the database now.
	return s.writtenOrder(ctx, userID, orderID)
}

// writtenOrder reads an order from the database; found is false when it is not there or
// belongs to someone else.
func (s *Service) writtenOrder(ctx context.Context, userID, orderID int64) (domain.VoucherOrder, bool, error) {
	o, err := s.d.Orders.Order(ctx, orderID)
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

// MyOrders pages through the user's written orders, newest first; before is the id the
// previous page ended with (0: from the newest).
func (s *Service) MyOrders(ctx context.Context, userID int64, first int, before int64) (OrderPage, error) {
	if userID <= 0 {
		return OrderPage{}, domain.Errorf(domain.CodeUnauthenticated, "log in first")
	}
	size, err := s.cfg.Pages.Size(first)
	if err != nil {
		return OrderPage{}, err
	}
	orders, err := s.d.Orders.OrdersOfUser(ctx, userID, before, size+1)
	if err != nil {
		return OrderPage{}, fmt.Errorf("list orders: %w", err)
	}
	page := OrderPage{Orders: orders}
	if len(orders) > size {
		page.Orders, page.HasNextPage = orders[:size], true
	}
	return page, nil
}

// OrderStatus streams an order's status to its owner: the current status first, then
// each change, closing after CREATED or FAILED (or when ctx ends). Errors: NOT_FOUND for
// an unknown id or anyone else's order.
//
// The status bus delivers at most once, so the subscription does not rely on it alone:
// when the bus asks (after a reconnect, events may have been lost) and every
// StatusRecheck while the order is still PENDING, it re-reads the order as order(id)
// does and delivers the status if it changed.
func (s *Service) OrderStatus(ctx context.Context, userID, orderID int64) (<-chan domain.OrderEvent, error) {
	// Listen before reading the current status, so a change in between is not lost.
	events, cancel, err := s.d.Status.Subscribe(ctx, orderID)
	if err != nil {
		return nil, fmt.Errorf("subscribe to order %d: %w", orderID, err)
	}
	o, found, err := s.Order(ctx, userID, orderID)
	if err != nil || !found {
		cancel()
		if err == nil {
			err = domain.Errorf(domain.CodeNotFound, "no such order")
		}
		return nil, err
	}
	out := make(chan domain.OrderEvent, 1)
	out <- domain.OrderEvent{OrderID: o.ID, UserID: o.UserID, VoucherID: o.VoucherID, Status: o.Status, At: s.now()}
	if o.Status.Final() {
		cancel()
		close(out)
		return out, nil
	}
	go func() {
		defer close(out)
		defer cancel()
		s.followOrder(ctx, userID, orderID, events, out)
	}()
	return out, nil
}

// followOrder delivers the order's final status to out once the bus announces it or a
// re-read finds it.
func (s *Service) followOrder(ctx context.Context, userID, orderID int64, events <-chan domain.OrderEvent, out chan<- domain.OrderEvent) {
	var recheck <-chan time.Time
	var timer *time.Timer
	if s.cfg.StatusRecheck > 0 {
		timer = time.NewTimer(jitter(s.cfg.StatusRecheck))
		defer timer.Stop()
		recheck = timer.C
	}
	for {
		var e domain.OrderEvent
		select {
		case <-ctx.Done():
			return
		case <-recheck:
			e = s.reread(ctx, userID, orderID)
			timer.Reset(jitter(s.cfg.StatusRecheck))
		case ev, ok := <-events:
			if !ok {
				return
			}
			e = ev
			if ev.Status == "" {
				// The bus may have lost events.
				e = s.reread(ctx, userID, orderID)
			}
		}
		if e.UserID != userID || e.Status == "" || e.Status == domain.OrderPending {
			continue
		}
		select {
		case out <- e:
		case <-ctx.Done():
			return
		}
		if e.Status.Final() {
			return
		}
	}
}

// rereadTimeout bounds one re-read of a subscribed order.
const rereadTimeout = 5 * time.Second

// reread reads a subscribed order as order(id) does; the zero event when it cannot be
// read now (a later re-read tries again) or is not (yet) found.
func (s *Service) reread(ctx context.Context, userID, orderID int64) domain.OrderEvent {
	select {
	case s.rereads <- struct{}{}:
		defer func() { <-s.rereads }()
	case <-ctx.Done():
		return domain.OrderEvent{}
	}
	ctx, cancel := context.WithTimeout(ctx, rereadTimeout)
	defer cancel()
	o, found, err := s.Order(ctx, userID, orderID)
	if err != nil {
		s.log.Debug("cannot re-read a subscribed order", slog.Int64("order_id", orderID), slog.Any("error", err))
		return domain.OrderEvent{}
	}
	if !found {
		return domain.OrderEvent{}
	}
	return domain.OrderEvent{OrderID: o.ID, UserID: o.UserID, VoucherID: o.VoucherID, Status: o.Status, At: s.now()}
}

// jitter spreads d over [0.8d, 1.2d), so subscriptions opened together do not re-read
// together.
func jitter(d time.Duration) time.Duration {
	return d*8/10 + rand.N(d*4/10+1)
}

// newRereadLimit returns a semaphore of n re-reads (at least 1).
func newRereadLimit(n int) chan struct{} { return make(chan struct{}, max(1, n)) }
