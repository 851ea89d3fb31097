package service

import (
	"context"
	"errors"
	"log/slog"
	"sync"

	"github.com/dealspot/dealspot/adapters/queue"
	"github.com/dealspot/dealspot/internal/app"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/config"
	"github.com/dealspot/dealspot/internal/domain"
)

// saleWorkers run the flash sale's background work: the order consumer, the reconciler
// and the sweeper of accepted claims. Each start returns the stop that ends it; the node
// calls it when it closes, before the queue and the stores close.
type saleWorkers struct {
	cfg   config.Seckill
	log   *slog.Logger
	queue *queue.Queue
	// handler writes a batch of claims (the order writer, as WithOrderHandler wraps it).
	handler    OrderHandler
	writer     *seckill.OrderWriter
	reconciler *seckill.Reconciler
	warmup     *seckill.Warmup
	accepted   *seckill.AcceptedClaims
}

// newSaleWorkers are the workers of the flash sale whose operations are ops, consuming
// from q.
func newSaleWorkers(cfg config.Seckill, log *slog.Logger, q *queue.Queue, ops app.FlashSaleOperations, o options) *saleWorkers {
	return &saleWorkers{cfg: cfg, log: log, queue: q, handler: o.handler(ops.OrderWriter.ProcessClaims),
		writer: ops.OrderWriter, reconciler: ops.Reconciler, warmup: ops.Warmup, accepted: ops.AcceptedClaims}
}

// startAcceptedSweeper forgets, every ACCEPTED_CLAIMS_SWEEP_INTERVAL until stop, the
// accepted claims whose orders are written.
func (w *saleWorkers) startAcceptedSweeper() (stop func() error) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		w.accepted.RunSweeper(ctx, w.cfg.AcceptedSweep)
	}()
	return func() error { cancel(); <-done; return nil }
}

// startReconciler repairs Redis and the database periodically until stop.
func (w *saleWorkers) startReconciler() (stop func() error) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		w.reconciler.RunReconciler(ctx, w.cfg.ReconcileInterval, reconcileConfig(w.cfg))
	}()
	return func() error { cancel(); <-done; return nil }
}

// startWarmup loads upcoming sales into Redis SALE_WARMUP_BEFORE before they begin,
// until stop.
func (w *saleWorkers) startWarmup() (stop func() error) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		w.warmup.Run(ctx)
	}()
	return func() error { cancel(); <-done; return nil }
}

// reconcileConfig is the reconciler's configuration.
func reconcileConfig(cfg config.Seckill) seckill.ReconcileConfig {
	return seckill.ReconcileConfig{
		RepublishAfter: cfg.RepublishAfter,
		FailAfter:      cfg.FailAfter,
		TransferAfter:  cfg.TransferAfter,
		Lookback:       cfg.ReconcileLookback,
	}
}

// startConsumer runs the order consumer until stop, which lets it finish the batch in
// hand.
func (w *saleWorkers) startConsumer() (stop func() error) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		err := w.queue.Consume(ctx, w.handler, func(ctx context.Context, c domain.Claim, cause error) {
			w.log.Error("order dead-lettered", slog.Int64("order_id", c.OrderID), slog.Any("cause", cause))
			if err := w.writer.FailClaim(ctx, c, ""); err != nil {
				w.log.Error("cannot fail a dead-lettered order; the reconciler will", slog.Int64("order_id", c.OrderID), slog.Any("error", err))
			}
		})
		if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, queue.ErrClosed) {
			w.log.Error("order consumer stopped", slog.Any("error", err))
		}
	}()
	w.log.Info("order consumer started")
	return func() error { cancel(); wg.Wait(); return nil }
}
