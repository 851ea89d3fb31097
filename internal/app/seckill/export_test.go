package seckill

import (
	"context"
	"io"
	"log/slog"
	"time"

	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/domain"
)

// NewOrderQueries returns the order queries alone, on orders, gate and status, for the
// tests of package seckill_test: following an order needs nothing else of the service.
func NewOrderQueries(cfg Config, store orders.OrderStore, gate SaleStock, status StatusBus) *OrderQueries {
	c := &core{cfg: cfg, d: Deps{Orders: store, Stock: gate, Status: status, Vouchers: noVouchers{}, VoucherCache: uncached{}}, now: time.Now,
		log: slog.New(slog.NewTextHandler(io.Discard, nil)), accepted: newAcceptedClaims(cfg.AcceptedMax)}
	return &OrderQueries{c: c, rereads: newRereadLimit(cfg.StatusRecheckConcurrency)}
}

// noVouchers knows no voucher (the pending orders of these tests show no price).
type noVouchers struct{ Vouchers }

func (noVouchers) Voucher(context.Context, int64) (domain.Voucher, error) {
	return domain.Voucher{}, domain.ErrNotFound
}

// uncached reads every voucher from the store.
type uncached struct{}

func (uncached) Get(ctx context.Context, _ int64, load func(context.Context) (domain.Voucher, bool, error)) (domain.Voucher, bool, error) {
	return load(ctx)
}

// NewOrderQueriesOnClock is NewOrderQueries whose periodic re-reads wait on after.
func NewOrderQueriesOnClock(cfg Config, store orders.OrderStore, gate SaleStock, status StatusBus, after func(time.Duration) <-chan time.Time) *OrderQueries {
	q := NewOrderQueries(cfg, store, gate, status)
	q.c.after = after
	return q
}

// RememberAccepted adds claims of the given order ids, in that order, to a memory of
// accepted claims bounded by max, forgets the ids in written, and returns the ids it
// still remembers (oldest first) and how many it forgot to stay within max.
func RememberAccepted(max int, ids []int64, written []int64) (kept []int64, evicted int) {
	a := newAcceptedClaims(max)
	for _, id := range ids {
		a.add(domain.Claim{OrderID: id, UserID: id, VoucherID: 1, ClaimedAt: time.Unix(1_700_000_000, 0)})
	}
	evicted = a.forget(written)
	for _, c := range a.snapshot(time.Unix(1_700_000_000, 0)) {
		kept = append(kept, c.OrderID)
	}
	return kept, evicted
}

// WithPayments lets q ask whether an order's money still moves.
func (q *OrderQueries) WithPayments(p OpenPayments) *OrderQueries {
	q.c.d.Payments = p
	return q
}
