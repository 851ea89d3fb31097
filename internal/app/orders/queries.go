package orders

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// runsShop checks that the actor runs the shop. Errors: NOT_FOUND, FORBIDDEN.
func (c *core) runsShop(ctx context.Context, a domain.Actor, shopID int64) error {
	if err := loggedIn(a); err != nil {
		return err
	}
	owner, err := c.d.Shops.ShopOwner(ctx, shopID)
	if errors.Is(err, domain.ErrNotFound) {
		return domain.Errorf(domain.CodeNotFound, "no shop %d", shopID)
	}
	if err != nil {
		return err
	}
	if !a.CanRunShop(owner) {
		return domain.Errorf(domain.CodeForbidden, "you do not run shop %d", shopID)
	}
	return nil
}

// OrderPage is one page of orders, newest first.
type OrderPage struct {
	Orders      []domain.VoucherOrder
	HasNextPage bool
}

// ShopOrders lists a shop's orders for the merchant who runs it.
type ShopOrders struct{ c *core }

// Page lists the shop's orders with a status in statuses (empty: any), newest first;
// before is the id the previous page ended with (0: from the newest). Errors:
// NOT_FOUND; FORBIDDEN for a shop the actor does not run.
func (q *ShopOrders) Page(ctx context.Context, a domain.Actor, shopID int64, statuses []domain.OrderStatus, first int, before int64) (OrderPage, error) {
	if err := q.c.runsShop(ctx, a, shopID); err != nil {
		return OrderPage{}, err
	}
	size, err := q.c.cfg.Pages.Size(first)
	if err != nil {
		return OrderPage{}, err
	}
	os, err := q.c.d.Orders.OrdersOfShop(ctx, shopID, statuses, before, size+1)
	if err != nil {
		return OrderPage{}, fmt.Errorf("list orders of shop %d: %w", shopID, err)
	}
	page := OrderPage{Orders: os}
	if len(os) > size {
		page.Orders, page.HasNextPage = os[:size], true
	}
	return page, nil
}

// OrderPayments reads the payments of orders for those who may see them.
type OrderPayments struct{ c *core }

// Of returns the payments of those of os the actor may see — their own orders, the
// orders of shops they run (MERCHANT), every order (ADMIN) — by order id, each order's
// oldest first, with one read of the payments (and one of each shop's owner); orders
// the actor may not see, and orders without payments, are left out.
func (q *OrderPayments) Of(ctx context.Context, a domain.Actor, os []domain.VoucherOrder) (map[int64][]domain.Payment, error) {
	if !a.Authenticated() {
		return map[int64][]domain.Payment{}, nil
	}
	runs := map[int64]bool{}
	var ids []int64
	for _, o := range os {
		if o.ID <= 0 || o.Status == domain.OrderPending {
			continue // not written: no payment yet
		}
		if o.UserID != a.UserID && a.Role != domain.RoleAdmin {
			mayRun, seen := runs[o.ShopID]
			if !seen {
				owner, err := q.c.d.Shops.ShopOwner(ctx, o.ShopID)
				if err != nil && !errors.Is(err, domain.ErrNotFound) {
					return nil, err
				}
				mayRun = err == nil && o.ShopID > 0 && a.CanRunShop(owner)
				runs[o.ShopID] = mayRun
			}
			if !mayRun {
				continue
			}
		}
		ids = append(ids, o.ID)
	}
	if len(ids) == 0 {
		return map[int64][]domain.Payment{}, nil
	}
	out, err := q.c.d.Payments.PaymentsOfOrders(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("list payments of %d orders: %w", len(ids), err)
	}
	return out, nil
}

// Stats are a flash sale's live numbers.
type Stats struct {
	VoucherID int64
	// Remaining is the stock still to give out; Accepted the claims the sale accepted
	// (Pending, not yet written, plus every written order, failed ones included).
	Remaining, Accepted, Pending                    int64
	Created, Paid, Used, Canceled, Refunded, Failed int64
	// ClaimsPerSecond is the orders created per second over the last rateWindow.
	ClaimsPerSecond float64
	At              time.Time
}

// rateWindow is what ClaimsPerSecond averages over.
const rateWindow = 5 * time.Second

// SaleStats reads a flash sale's live numbers for the merchant who runs its shop.
type SaleStats struct{ c *core }

// Get reads the sale's numbers now. Errors: NOT_FOUND; BAD_USER_INPUT for a normal
// voucher; FORBIDDEN for a sale of a shop the actor does not run.
func (q *SaleStats) Get(ctx context.Context, a domain.Actor, voucherID int64) (Stats, error) {
	v, err := q.sale(ctx, a, voucherID)
	if err != nil {
		return Stats{}, err
	}
	return q.read(ctx, v)
}

func (q *SaleStats) sale(ctx context.Context, a domain.Actor, voucherID int64) (domain.Voucher, error) {
	if err := loggedIn(a); err != nil {
		return domain.Voucher{}, err
	}
	v, err := q.c.d.Vouchers.Voucher(ctx, voucherID)
	if errors.Is(err, domain.ErrNotFound) {
		return domain.Voucher{}, domain.Errorf(domain.CodeNotFound, "no voucher %d", voucherID)
	}
	if err != nil {
		return domain.Voucher{}, err
	}
	if v.Kind != domain.VoucherFlashSale || v.FlashSale == nil {
		return domain.Voucher{}, domain.Errorf(domain.CodeBadUserInput, "voucher %d is not a flash sale", voucherID)
	}
	if err := q.c.runsShop(ctx, a, v.ShopID); err != nil {
		return domain.Voucher{}, err
	}
	return v, nil
}

func (q *SaleStats) read(ctx context.Context, v domain.Voucher) (Stats, error) {
	now := q.c.now()
	s := Stats{VoucherID: v.ID, At: now, Remaining: int64(v.FlashSale.Stock)}
	live, err := q.c.d.Sales.Live(ctx, v.ID)
	if err != nil {
		return Stats{}, err
	}
	if live.Loaded {
		s.Remaining = live.Stock
	}
	pending := live.Pending
	counts, recent, err := q.c.d.Orders.CountByStatus(ctx, v.ID, now.Add(-rateWindow))
	if err != nil {
		return Stats{}, err
	}
	s.Pending = pending
	s.Created, s.Paid, s.Used = counts[domain.OrderCreated], counts[domain.OrderPaid], counts[domain.OrderUsed]
	s.Canceled, s.Refunded, s.Failed = counts[domain.OrderCanceled], counts[domain.OrderRefunded], counts[domain.OrderFailed]
	s.Accepted = pending
	for _, n := range counts {
		s.Accepted += n
	}
	s.ClaimsPerSecond = float64(recent) / rateWindow.Seconds()
	return s, nil
}

// heartbeatEvery is how many quiet intervals Watch lets pass before it pushes the
// unchanged numbers again.
const heartbeatEvery = 10

// Viewer says who watches a sale as they stand now: their role may be taken away, or
// their shop given to someone else, while they watch. An error means the viewer is no
// longer there (their session ended).
type Viewer func(ctx context.Context) (domain.Actor, error)

// FixedViewer is a viewer whose rights never change: a.
func FixedViewer(a domain.Actor) Viewer {
	return func(context.Context) (domain.Actor, error) { return a, nil }
}

// SaleWatch is an open watch of a sale: its pushes, and once Pushes is closed, why.
type SaleWatch struct {
	Pushes <-chan Stats
	err    error // set before Pushes is closed
}

// Err is why the watch ended, once Pushes is closed: FORBIDDEN or NOT_FOUND when the
// viewer lost the right to watch the sale, UNAUTHENTICATED when they left; nil when
// the watch's context ended.
func (w *SaleWatch) Err() error { return w.err }

// Watch pushes the sale's numbers: at once, then at most one push per StatsInterval
// while they change (and every heartbeatEvery intervals when they do not), until ctx
// ends. Before every push it asks viewer who watches and checks again that they may
// (their role, and the shop's owner); when they no longer may, the watch ends with the
// refusal (SaleWatch.Err). Errors as Get.
func (q *SaleStats) Watch(ctx context.Context, viewer Viewer, voucherID int64) (*SaleWatch, error) {
	a, err := viewer(ctx)
	if err != nil {
		return nil, err
	}
	v, err := q.sale(ctx, a, voucherID)
	if err != nil {
		return nil, err
	}
	first, err := q.read(ctx, v)
	if err != nil {
		return nil, err
	}
	out := make(chan Stats, 1)
	out <- first
	w := &SaleWatch{Pushes: out}
	go func() {
		defer close(out)
		// The wait starts after each read, so two reads (and pushes) are never closer
		// than StatsInterval, however long a read or a slow client takes.
		timer := time.NewTimer(q.c.cfg.StatsInterval)
		defer timer.Stop()
		last, quiet := first, 0
		for {
			select {
			case <-ctx.Done():
				return
			case <-timer.C:
			}
			timer.Reset(q.c.cfg.StatsInterval)
			s, err := q.read(ctx, v)
			if err != nil {
				if ctx.Err() == nil {
					q.c.log.Warn("cannot read sale stats", slog.Int64("voucher_id", v.ID), slog.Any("error", err))
				}
				continue
			}
			same := s.Remaining == last.Remaining && s.Accepted == last.Accepted && s.Pending == last.Pending &&
				s.Created == last.Created && s.Paid == last.Paid && s.Used == last.Used && s.Canceled == last.Canceled &&
				s.Refunded == last.Refunded && s.Failed == last.Failed && s.ClaimsPerSecond == last.ClaimsPerSecond
			if same && quiet+1 < heartbeatEvery {
				quiet++
				continue
			}
			if lost, err := q.mayStillWatch(ctx, viewer, v); lost {
				w.err = err
				return
			} else if err != nil {
				continue // cannot tell now: no push, the next one asks again
			}
			select {
			case out <- s:
				last, quiet = s, 0
			case <-ctx.Done():
				return
			}
		}
	}()
	return w, nil
}

// mayStillWatch checks that the viewer may still watch sale v. lost is true with the
// refusal when they may not; an error with lost false means it cannot be told now.
func (q *SaleStats) mayStillWatch(ctx context.Context, viewer Viewer, v domain.Voucher) (lost bool, err error) {
	a, err := viewer(ctx)
	if err == nil {
		err = q.c.runsShop(ctx, a, v.ShopID)
	}
	switch domain.ErrorCode(err) {
	case domain.CodeForbidden, domain.CodeNotFound, domain.CodeUnauthenticated:
		return true, err
	}
	return false, err
}
