package service

import (
	"context"

	"github.com/dealspot/dealspot/adapters/metrics"
	"github.com/dealspot/dealspot/adapters/queue"
)

// registerPoolMetrics adds the build, the database pool and the Redis pool to /metrics.
func (s *Node) registerPoolMetrics() error {
	reg := s.Metrics.Registry
	if err := metrics.RegisterBuildInfo(reg); err != nil {
		return err
	}
	if err := metrics.RegisterDBStats(reg, s.Store.DB(), s.Store.Dialect()); err != nil {
		return err
	}
	return metrics.RegisterRedisPool(reg, "main", s.Redis.Client.PoolStats)
}

// registerQueueMetrics adds the order queue's depth and dead letters to /metrics.
func (s *Node) registerQueueMetrics(q *queue.Queue) error {
	_, err := metrics.NewQueueCollector(s.Metrics.Registry, metrics.QueueSource{
		Backend: q.Config().Backend,
		Depth: func(ctx context.Context) ([]metrics.QueueDepth, error) {
			ds, err := q.Depth(ctx)
			out := make([]metrics.QueueDepth, len(ds))
			for i, d := range ds {
				out[i] = metrics.QueueDepth{Queue: d.Queue, Waiting: d.Waiting, InFlight: d.InFlight}
			}
			return out, err
		},
		DeadLetters: q.DeadLetters,
	})
	return err
}
