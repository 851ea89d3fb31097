package service

import (
	"context"

	"github.com/dealspot/dealspot/adapters/metrics"
	"github.com/dealspot/dealspot/graph"
	cache "github.com/dealspot/dealspot/internal/readcache"
)

// newResponseCache builds the GraphQL response cache (nil when RESPONSE_CACHE_TTL is 0).
// Every read-cache invalidation that reaches this node — a shop, its types, a voucher,
// from this node or another — drops every answer it holds.
func (s *Node) newResponseCache(ctx context.Context, inv cache.Invalidations) (*graph.ResponseCache, error) {
	cfg := s.Config.Cache
	if cfg.ResponseTTL <= 0 {
		return nil, nil
	}
	m, err := metrics.NewResponseCacheMetrics(s.Metrics.Registry)
	if err != nil {
		return nil, err
	}
	rc, err := graph.NewResponseCache(graph.ResponseCacheOptions{
		TTL:           cfg.ResponseTTL,
		MaxBytes:      cfg.ResponseMaxBytes,
		MaxEntryBytes: cfg.ResponseMaxEntryBytes,
		CountView: func(ctx context.Context, clientIP string, shopID int64) {
			if s.Ops.Visits != nil {
				s.Ops.Visits.CountView(ctx, 0, clientIP, shopID)
			}
		},
		Metrics: m,
	})
	if err != nil {
		return nil, err
	}
	stop, err := inv.Subscribe(ctx, func(string) { rc.Drop() })
	if err != nil {
		return nil, err
	}
	s.closers = append(s.closers, func() error { stop(); return nil })
	return rc, nil
}
