package service

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/adapters/metrics"
	"github.com/dealspot/dealspot/adapters/queue"
	redisadapter "github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/internal/app"
	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/config"
	"github.com/dealspot/dealspot/internal/domain"
	cache "github.com/dealspot/dealspot/internal/readcache"
)

// startSeckill builds the flash sale on the chosen queue, loads live sales into Redis
// and, when configured, starts the order consumer.
func (s *Node) startSeckill(ctx context.Context, caches *caches, o options) error {
	cfg := s.Config
	q, err := queue.Open(ctx, queue.Config{
		Backend:      cfg.Queue,
		Namespace:    cfg.Seckill.QueueNamespace,
		Shards:       cfg.Seckill.Shards,
		KafkaBrokers: cfg.KafkaBrokers,
		AMQPURL:      cfg.AMQPURL,
		BatchSize:    cfg.Seckill.BatchSize,
		BatchWait:    cfg.Seckill.BatchWait,
		Workers:      cfg.Seckill.Workers,
		Consumers:    cfg.Seckill.Consumers,
		MaxRetries:   cfg.Seckill.MaxRetries,

		HandleTimeout: cfg.Seckill.WriteTimeout,

		ClaimIdle:     cfg.Seckill.StreamClaimIdle,
		ClaimInterval: cfg.Seckill.StreamClaimInterval,
		Tracer:        s.tracer,
	}, s.Redis.Client, s.Log)
	switch {
	case err != nil && cfg.Queue == config.QueueKafka:
		return blame("KAFKA_BROKERS", "Kafka", strings.Join(cfg.KafkaBrokers, ","), err)
	case err != nil && cfg.Queue == config.QueueAMQP:
		return blame("AMQP_URL", "RabbitMQ", urlHost(cfg.AMQPURL), err)
	case err != nil:
		return err // it names the queue already
	}
	s.Queue = q
	s.closers = append(s.closers, q.Close)
	if err := registerQueueMetrics(s.Metrics.Registry, q); err != nil {
		return err
	}
	observer, err := metrics.NewFlashSaleMetrics(s.Metrics.Registry)
	if err != nil {
		return err
	}

	voucherCache, err := newCache[domain.Voucher](ctx, caches, "voucher", cache.WithValid[domain.Voucher](s.ids.voucherValid))
	if err != nil {
		return err
	}
	vouchers := cache.NewByID(voucherCache)
	// A claim does not carry its sale's bucket count: the gate asks the flash sale once
	// per sale and process (sale is set below, before any claim or load can ask).
	var sale *seckill.Service
	gateCfg := redisadapter.GateConfig{Shards: cfg.Seckill.Shards, Coalesce: coalescing(s.batchSizes, cfg.Seckill.GateCoalesce, "gate"),
		BucketsOf: func(ctx context.Context, voucherID int64) (int, error) { return sale.BucketsOf(ctx, voucherID) }}
	if q.PublishedByGate() {
		gateCfg.ClaimStream = q.ClaimStream
	}
	gate, err := redisadapter.NewSaleGate(s.Redis.Client, gateCfg)
	if err != nil {
		return err
	}
	ids, err := orderIDs(ctx, s.Store, s.Log, o.idsNow)
	if err != nil {
		return err
	}
	// The reconciler republishes stale claims through the queue whatever the backend;
	// the claim path does not publish where the gate enqueues claims itself.
	republisher := o.publisher(q)
	var publisher seckill.ClaimPublisher = republisher
	if q.PublishedByGate() {
		publisher = enqueuedByGate{}
	}
	status := redisadapter.NewStatusBus(s.Redis.Client, s.Redis.Channel("order:status"))
	s.closers = append(s.closers, status.Close)
	soldOut := redisadapter.NewSoldOutBus(s.Redis.Client, s.Redis.Channel("seckill:soldout"))
	var sold orders.SoldChanges // a nil *soldRefresher would not be a nil interface
	if r := s.startSoldRefresher(cfg.Cache.SoldRefresh); r != nil {
		sold = r
	}
	svc, err := seckill.New(ctx, seckill.Config{
		ClaimsPerUser: cfg.Seckill.ClaimRate.Max,
		ClaimWindow:   cfg.Seckill.ClaimRate.Window,
		GlobalClaims:  seckill.RateLimit{Max: cfg.Seckill.ClaimRateGlobal.Max, Window: cfg.Seckill.ClaimRateGlobal.Window},
		MaxStock:      cfg.Seckill.MaxStock,
		MaxBuckets:    cfg.Seckill.Shards, // each of a sale's buckets needs a shard of its own
		PayTimeout:    cfg.Orders.PayTimeout,

		KeepSlotAfterCancel: !cfg.Orders.ReclaimAfterCancel,
		SoldOutMarkTTL:      cfg.Seckill.SoldOutMarkTTL,
		WarmupBefore:        cfg.Seckill.WarmupBefore,
		ProgressInterval:    cfg.Seckill.ProgressInterval,
		ProgressMaxSales:    cfg.Seckill.ProgressMaxSales,
		PublishTimeout:      cfg.Seckill.PublishTimeout,
		Pages:               domain.PageLimits{Default: cfg.Paging.DefaultPageSize, Max: cfg.Paging.MaxPageSize},

		StatusRecheck:            cfg.Seckill.StatusRecheck,
		StatusRecheckConcurrency: cfg.Seckill.StatusRecheckConcurrency,
		AcceptedMax:              cfg.Seckill.AcceptedMax,
		ClaimsInRedis:            q.PublishedByGate(),
	}, seckill.Deps{
		Vouchers:       s.Store.Vouchers(),
		Orders:         s.Store.Orders(),
		Stock:          o.saleStock(gate),
		Publisher:      publisher,
		Republisher:    republisher,
		IDs:            o.ids(ids),
		WarmupLocks:    redisadapter.NewWarmupLocks(s.Redis.Client),
		Status:         status,
		SoldOut:        soldOut,
		Shops:          s.Store.Shops(),
		VoucherCache:   vouchers,
		VoucherChanges: voucherReadCache{vouchers, s.ids},
		Payments:       s.Store.Payments(),
		Sold:           sold,
		Observer:       observer,
		Notifier:       s.notifications,
		Log:            s.Log,
	})
	if err != nil {
		return err
	}
	sale = svc
	s.closers = append(s.closers, func() error { svc.Close(); return nil })
	s.App.Commands.FlashSaleCommands, s.App.Queries.FlashSaleQueries, s.Ops.FlashSaleOperations = app.FlashSale(svc)
	if err := s.startWaitlist(svc, o.ids(ids), status); err != nil {
		return err
	}
	if err := s.startLifecycle(svc.Units, o.ids(ids), status, sold); err != nil {
		return err
	}
	n, err := s.Ops.Reconciler.LoadSales(ctx)
	if err != nil {
		return fmt.Errorf("load flash sales into redis: %w", err)
	}
	s.Log.Info("flash sales ready", slog.Int("loaded_into_redis", n), slog.String("queue", cfg.Queue))
	s.sale = newSaleWorkers(cfg.Seckill, s.Log, q, s.Ops.FlashSaleOperations, o)
	if cfg.Seckill.Consume {
		s.StartConsumer()
	}
	if cfg.Seckill.ReconcileInterval > 0 {
		s.closers = append(s.closers, s.sale.startReconciler())
	}
	if cfg.Seckill.AcceptedMax > 0 {
		s.closers = append(s.closers, s.sale.startAcceptedSweeper())
	}
	if cfg.Seckill.WarmupBefore > 0 {
		s.closers = append(s.closers, s.sale.startWarmup())
	}
	return nil
}

// ReconcileConfig is the reconciler's configuration.
func (s *Node) ReconcileConfig() seckill.ReconcileConfig { return reconcileConfig(s.Config.Seckill) }

// StartConsumer runs the order consumer until Close.
func (s *Node) StartConsumer() {
	// Stop consuming (finishing the batch in hand) before the queue and stores close.
	s.closers = append(s.closers, s.sale.startConsumer())
}

// enqueuedByGate is the claim path's publisher where the gate enqueues accepted claims in
// its atomic step (QUEUE=redis): there is nothing left to publish.
type enqueuedByGate struct{}

func (enqueuedByGate) PublishClaim(context.Context, domain.Claim) error { return nil }

// voucherReadCache is the read-through cache of vouchers by id (seckill.VoucherReader)
// under the name of seckill.VoucherInvalidator's method, which drops a changed voucher
// from it on every node.
type voucherReadCache struct {
	cache.ByID[domain.Voucher]
	ids *idFilters
}

var (
	_ seckill.VoucherReader      = voucherReadCache{}
	_ seckill.VoucherInvalidator = voucherReadCache{}
)

// VoucherChanged implements seckill.VoucherInvalidator.
func (r voucherReadCache) VoucherChanged(ctx context.Context, id int64) error {
	r.ids.addVoucher(id) // a new voucher's id joins the id filter before it is announced
	return r.Invalidate(ctx, id)
}

// orderIDs returns this process's order-id generator, its node part taken from the
// database's count of process starts (so ids never depend on what Redis remembers).
func orderIDs(ctx context.Context, store *entstore.Store, log *slog.Logger, now func() time.Time) (*seckill.OrderIDs, error) {
	host, _ := os.Hostname()
	start, err := store.StartOrderIDNode(ctx, host)
	if err != nil {
		return nil, err
	}
	node, err := seckill.NodeOfStart(start)
	if err != nil {
		return nil, err
	}
	log.Info("order ids", slog.Int64("process_start", start), slog.Int64("node", node))
	return seckill.NewOrderIDs(node, now)
}
