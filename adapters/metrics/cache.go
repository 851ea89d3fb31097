// Package metrics exposes Dealspot's app-level observations as Prometheus metrics.
package metrics

import (
	"errors"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dealspot/dealspot/internal/readcache"
)

// CacheMetrics counts cache hits and misses per layer, loads and lock waits.
type CacheMetrics struct {
	hits, misses *prometheus.CounterVec
	loads, waits *prometheus.CounterVec
}

var _ readcache.Metrics = (*CacheMetrics)(nil)

// NewCacheMetrics registers the cache counters with reg. Registering twice on one
// registry reuses the counters already there.
func NewCacheMetrics(reg prometheus.Registerer) (*CacheMetrics, error) {
	m := &CacheMetrics{
		hits: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "dealspot_cache_hits_total",
			Help: "Cache reads answered by a layer (l1 in-process, l2 Redis); cached nulls count.",
		}, []string{"cache", "layer"}),
		misses: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "dealspot_cache_misses_total",
			Help: "Cache reads a layer (l1 in-process, l2 Redis) could not answer.",
		}, []string{"cache", "layer"}),
		loads: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "dealspot_cache_loads_total",
			Help: "Loads from the source of truth.",
		}, []string{"cache"}),
		waits: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "dealspot_cache_lock_waits_total",
			Help: "Rebuilds that waited for another process holding the key's lock.",
		}, []string{"cache"}),
	}
	for _, c := range []**prometheus.CounterVec{&m.hits, &m.misses, &m.loads, &m.waits} {
		var err error
		if *c, err = register(reg, *c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// register registers c with reg, or returns the collector of the same kind already
// registered there under its name.
func register[C prometheus.Collector](reg prometheus.Registerer, c C) (C, error) {
	err := reg.Register(c)
	if err == nil {
		return c, nil
	}
	var are prometheus.AlreadyRegisteredError
	if !errors.As(err, &are) {
		return c, err
	}
	existing, ok := are.ExistingCollector.(C)
	if !ok {
		return c, err
	}
	return existing, nil
}

// Hit implements readcache.Metrics.
func (m *CacheMetrics) Hit(name string, layer readcache.Layer) {
	m.hits.WithLabelValues(name, string(layer)).Inc()
}

// Miss implements readcache.Metrics.
func (m *CacheMetrics) Miss(name string, layer readcache.Layer) {
	m.misses.WithLabelValues(name, string(layer)).Inc()
}

// Load implements readcache.Metrics.
func (m *CacheMetrics) Load(name string) { m.loads.WithLabelValues(name).Inc() }

// LockWait implements readcache.Metrics.
func (m *CacheMetrics) LockWait(name string) { m.waits.WithLabelValues(name).Inc() }
