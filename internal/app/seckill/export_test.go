package seckill

import (
	"io"
	"log/slog"
	"time"
)

// NewOrderQueries returns the order queries alone, on orders, gate and status, for the
// tests of package seckill_test: following an order needs nothing else of the service.
func NewOrderQueries(cfg Config, orders Orders, gate StockGate, status StatusBus) *OrderQueries {
	c := &core{cfg: cfg, d: Deps{Orders: orders, Gate: gate, Status: status}, now: time.Now,
		log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	return &OrderQueries{c: c, rereads: newRereadLimit(cfg.StatusRecheckConcurrency)}
}

// NewOrderQueriesOnClock is NewOrderQueries whose periodic re-reads wait on after.
func NewOrderQueriesOnClock(cfg Config, orders Orders, gate StockGate, status StatusBus, after func(time.Duration) <-chan time.Time) *OrderQueries {
	q := NewOrderQueries(cfg, orders, gate, status)
	q.c.after = after
	return q
}
