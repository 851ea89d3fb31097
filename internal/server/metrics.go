package server

import (
	"context"
	"regexp"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// Metrics are the HTTP and GraphQL metrics served at /metrics.
type Metrics struct {
	Registry   *prometheus.Registry
	operations *prometheus.CounterVec
	latency    *prometheus.HistogramVec
	httpReqs   *prometheus.CounterVec

	mu    sync.Mutex
	names map[string]struct{}
}

// maxOperationNames bounds the label values clients can create by naming operations.
const maxOperationNames = 200

var operationNamePattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)

// NewMetrics registers Dealspot's metrics, with Go and process collectors, in a fresh
// registry.
func NewMetrics() *Metrics {
	m := &Metrics{
		Registry: prometheus.NewRegistry(),
		operations: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "dealspot_graphql_operations_total",
			Help: "GraphQL operations served, by operation name and outcome (ok or error).",
		}, []string{"operation", "outcome"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "dealspot_graphql_operation_duration_seconds",
			Help:    "GraphQL operation latency by operation name.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"operation"}),
		httpReqs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "dealspot_http_requests_total",
			Help: "HTTP requests by route and status code.",
		}, []string{"route", "code"}),
		names: map[string]struct{}{},
	}
	m.Registry.MustRegister(m.operations, m.latency, m.httpReqs,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// ObserveOperation records one GraphQL operation.
func (m *Metrics) ObserveOperation(_ context.Context, name string, d time.Duration, errs int) {
	name = m.label(name)
	outcome := "ok"
	if errs > 0 {
		outcome = "error"
	}
	m.operations.WithLabelValues(name, outcome).Inc()
	m.latency.WithLabelValues(name).Observe(d.Seconds())
}

// label keeps the operation label set bounded: odd names and names past the cap become
// "other".
func (m *Metrics) label(name string) string {
	if !operationNamePattern.MatchString(name) {
		return "other"
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.names[name]; ok {
		return name
	}
	if len(m.names) >= maxOperationNames {
		return "other"
	}
	m.names[name] = struct{}{}
	return name
}

func (m *Metrics) observeHTTP(route string, code int) {
	m.httpReqs.WithLabelValues(route, strconv.Itoa(code)).Inc()
}
