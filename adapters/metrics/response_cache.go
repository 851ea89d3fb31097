package metrics

import "github.com/prometheus/client_golang/prometheus"

// ResponseCacheMetrics counts the GraphQL response cache's hits, misses and evictions
// (it implements graph.ResponseCacheMetrics).
type ResponseCacheMetrics struct {
	hits, misses, evictions prometheus.Counter
}

// NewResponseCacheMetrics registers the response cache's counters with reg (or reuses
// those already registered there).
func NewResponseCacheMetrics(reg prometheus.Registerer) (*ResponseCacheMetrics, error) {
	m := &ResponseCacheMetrics{
		hits: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "dealspot_response_cache_hits_total",
			Help: "GraphQL requests answered from the response cache.",
		}),
		misses: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "dealspot_response_cache_misses_total",
			Help: "Public GraphQL queries the response cache could not answer, so they ran.",
		}),
		evictions: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "dealspot_response_cache_evictions_total",
			Help: "Cached GraphQL answers dropped to keep the cache within RESPONSE_CACHE_MAX_BYTES.",
		}),
	}
	for _, c := range []*prometheus.Counter{&m.hits, &m.misses, &m.evictions} {
		var err error
		if *c, err = register(reg, *c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// Hit counts a request answered from the cache.
func (m *ResponseCacheMetrics) Hit() { m.hits.Inc() }

// Miss counts a cacheable request that ran.
func (m *ResponseCacheMetrics) Miss() { m.misses.Inc() }

// Evict counts an answer evicted for size.
func (m *ResponseCacheMetrics) Evict() { m.evictions.Inc() }
