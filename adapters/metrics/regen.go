package metrics

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dealspot/dealspot/internal/app/regen"
)

// RegenMetrics counts the Redis generations a node saw and its rebuilds.
type RegenMetrics struct {
	changes  prometheus.Counter
	rebuilds *prometheus.CounterVec
	seconds  *prometheus.HistogramVec
}

var _ regen.Observer = (*RegenMetrics)(nil)

// NewRegenMetrics registers the generation counters with reg. Registering twice on one
// registry reuses the counters already there.
func NewRegenMetrics(reg prometheus.Registerer) (*RegenMetrics, error) {
	m := &RegenMetrics{}
	var err error
	if m.changes, err = register(reg, prometheus.NewCounter(prometheus.CounterOpts{
		Name: "dealspot_redis_generation_changes_total",
		Help: "Times this node found Redis in a new generation (it came back empty: restarted without persistence, flushed, failed over to an empty replica).",
	})); err != nil {
		return nil, err
	}
	if m.rebuilds, err = register(reg, prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "dealspot_redis_rebuilds_total",
		Help: "Rebuilds of a derived Redis structure from the database after a generation change, by structure and outcome (ok or error).",
	}, []string{"structure", "outcome"})); err != nil {
		return nil, err
	}
	if m.seconds, err = register(reg, prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "dealspot_redis_rebuild_duration_seconds",
		Help:    "How long one rebuild of a derived Redis structure took, by structure.",
		Buckets: []float64{.01, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60},
	}, []string{"structure"})); err != nil {
		return nil, err
	}
	return m, nil
}

// GenerationChanged implements regen.Observer.
func (m *RegenMetrics) GenerationChanged() { m.changes.Inc() }

// Rebuilt implements regen.Observer.
func (m *RegenMetrics) Rebuilt(name string, err error, took time.Duration) {
	outcome := "ok"
	if err != nil {
		outcome = "error"
	}
	m.rebuilds.WithLabelValues(name, outcome).Inc()
	m.seconds.WithLabelValues(name).Observe(took.Seconds())
}
