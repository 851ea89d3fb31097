package service

import (
	"context"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/adapters/metrics"
	"github.com/dealspot/dealspot/adapters/queue"
	redisadapter "github.com/dealspot/dealspot/adapters/redis"
)

// registerPoolMetrics adds the build, the database pool and the Redis pool to /metrics.
func registerPoolMetrics(reg prometheus.Registerer, store *entstore.Store, rc *redisadapter.Conn) error {
	if err := metrics.RegisterBuildInfo(reg); err != nil {
		return err
	}
	if err := metrics.RegisterDBStats(reg, store.DB(), store.Dialect()); err != nil {
		return err
	}
	return metrics.RegisterRedisPool(reg, "main", rc.Client.PoolStats)
}

// registerQueueMetrics adds the order queue's depth and dead letters to /metrics.
func registerQueueMetrics(reg prometheus.Registerer, q *queue.Queue) error {
	_, err := metrics.NewQueueCollector(reg, metrics.QueueSource{
		Backend: q.Config().Backend,
		Depth: func(ctx context.Context) ([]metrics.QueueDepth, error) {
			ds, err := q.Depth(ctx)
			out := make([]metrics.QueueDepth, len(ds))
			for i, d := range ds {
				out[i] = metrics.QueueDepth{Queue: d.Queue, Waiting: d.Waiting, InFlight: d.InFlight}
			}
			return out, err
		},
		DeadLetters:      q.DeadLetters,
		AbandonedBatches: q.AbandonedBatches,
	})
	return err
}
