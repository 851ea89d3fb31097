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

	// ops holds each operation label's series, so a request finds them with one map
	// read instead of validating and hashing its labels; at most maxOperationNames.
	mu    sync.Mutex
	ops   sync.Map // operation name → *opSeries
	names int
	// http holds the request counters by route and status code.
	http sync.Map // httpKey → prometheus.Counter
}

// opSeries are one operation label's series.
type opSeries struct {
	ok, failed prometheus.Counter
	latency    prometheus.Observer
}

type httpKey struct {
	route string
	code  int
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
	}
	m.Registry.MustRegister(m.operations, m.latency, m.httpReqs,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// ObserveOperation records one GraphQL operation.
func (m *Metrics) ObserveOperation(_ context.Context, name string, d time.Duration, errs int) {
	ops := m.series(name)
	if errs > 0 {
		ops.failed.Inc()
	} else {
		ops.ok.Inc()
	}
	ops.latency.Observe(d.Seconds())
}

// series returns name's series. The label set stays bounded: odd names and names past
// the cap are counted as "other".
func (m *Metrics) series(name string) *opSeries {
	if s, ok := m.ops.Load(name); ok {
		return s.(*opSeries)
	}
	label := name
	if !operationNamePattern.MatchString(name) {
		label = "other"
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	known, ok := m.ops.Load(label)
	if !ok && label != "other" && m.names >= maxOperationNames {
		label = "other"
		known, ok = m.ops.Load(label)
	}
	if ok {
		return known.(*opSeries)
	}
	s := &opSeries{
		ok:      m.operations.WithLabelValues(label, "ok"),
		failed:  m.operations.WithLabelValues(label, "error"),
		latency: m.latency.WithLabelValues(label),
	}
	m.ops.Store(label, s)
	if label != "other" {
		m.names++
	}
	return s
}

func (m *Metrics) observeHTTP(route string, code int) {
	k := httpKey{route, code}
	c, ok := m.http.Load(k)
	if !ok {
		// Routes are a fixed set and codes few, so this stays small.
		c, _ = m.http.LoadOrStore(k, m.httpReqs.WithLabelValues(route, strconv.Itoa(code)))
	}
	c.(prometheus.Counter).Inc()
}
