package service

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/app/shop"
	"github.com/dealspot/dealspot/internal/domain"
)

// Option changes how New builds a Node.
type Option func(*options)

type options struct {
	wrapShops     func(shop.Repository) shop.Repository
	wrapPublisher func(seckill.ClaimPublisher) seckill.ClaimPublisher
	wrapHandler   func(OrderHandler) OrderHandler
	wrapStock     func(seckill.SaleStock) seckill.SaleStock
	wrapIDs       func(seckill.IDGenerator) seckill.IDGenerator
	socialNow     func() time.Time // see WithSocialClock
	idsNow        func() time.Time // see WithOrderIDClock
	remindersNow  func() time.Time // see WithReminderClock

	tracer trace.TracerProvider // see WithTracerProvider
}

// OrderHandler writes a batch of claims (the order consumer's handler).
type OrderHandler = func(ctx context.Context, claims []domain.Claim) error

// WithOrderHandler makes the order consumer call wrap(handler), so that tests can make a
// consumer fail after writing (a lost ack).
func WithOrderHandler(wrap func(OrderHandler) OrderHandler) Option {
	return func(o *options) { o.wrapHandler = wrap }
}

func (o options) handler(h OrderHandler) OrderHandler {
	if o.wrapHandler == nil {
		return h
	}
	return o.wrapHandler(h)
}

// WithClaimPublisher makes the claim path and the reconciler publish through wrap(queue),
// so that tests can make publishing fail.
func WithClaimPublisher(wrap func(seckill.ClaimPublisher) seckill.ClaimPublisher) Option {
	return func(o *options) { o.wrapPublisher = wrap }
}

// publisher returns the claim publisher the claim path uses.
func (o options) publisher(p seckill.ClaimPublisher) seckill.ClaimPublisher {
	if o.wrapPublisher == nil {
		return p
	}
	return o.wrapPublisher(p)
}

// WithShopRepository makes New hand the shop use cases wrap(repository) instead of the
// store's shop repository, so that component tests and benchmarks can observe (count,
// slow down) the reads that reach the database.
func WithShopRepository(wrap func(shop.Repository) shop.Repository) Option {
	return func(o *options) { o.wrapShops = wrap }
}

// WithSaleStock wraps the flash sale's stock in Redis (the claim's gate, the loads, the
// returned units, the reads and repairs), e.g. to count or fail its calls in tests.
func WithSaleStock(wrap func(seckill.SaleStock) seckill.SaleStock) Option {
	return func(o *options) { o.wrapStock = wrap }
}

// saleStock returns the sale stock the flash sale uses.
func (o options) saleStock(s seckill.SaleStock) seckill.SaleStock {
	if o.wrapStock == nil {
		return s
	}
	return o.wrapStock(s)
}

// WithOrderIDs wraps the flash sale's order-id generator, e.g. to repeat an id in tests.
func WithOrderIDs(wrap func(seckill.IDGenerator) seckill.IDGenerator) Option {
	return func(o *options) { o.wrapIDs = wrap }
}

// WithOrderIDClock makes the order-id generator read the time from now, e.g. to take
// every id in one second in tests.
func WithOrderIDClock(now func() time.Time) Option {
	return func(o *options) { o.idsNow = now }
}

// ids returns the order-id generator the flash sale uses.
func (o options) ids(g seckill.IDGenerator) seckill.IDGenerator {
	if o.wrapIDs == nil {
		return g
	}
	return o.wrapIDs(g)
}

func newOptions(opts []Option) options {
	var o options
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	return o
}

// shops returns the shop repository the use cases read and write through.
func (o options) shops(r shop.Repository) shop.Repository {
	if o.wrapShops == nil {
		return r
	}
	return o.wrapShops(r)
}
