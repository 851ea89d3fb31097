package metrics_test

import (
	"math"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dealspot/dealspot/adapters/metrics"
	"github.com/dealspot/dealspot/internal/app/regen/regentest"
)

// The generation metrics meet the Observer contract, read back from their registry.
func TestRegenMetricsContract(t *testing.T) {
	t.Parallel()
	regentest.ObserverContract(t, func(t *testing.T) regentest.Observer {
		reg := prometheus.NewRegistry()
		m, err := metrics.NewRegenMetrics(reg)
		if err != nil {
			t.Fatal(err)
		}
		return regentest.Observer{Observer: m, Counts: func(t *testing.T) regentest.Counts { return regenCounts(t, reg) }}
	})
}

// regenCounts reads the generation metrics of reg.
func regenCounts(t *testing.T, reg *prometheus.Registry) regentest.Counts {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var c regentest.Counts
	for _, f := range families {
		for _, m := range f.GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			name := labels["structure"]
			switch f.GetName() {
			case "dealspot_redis_generation_changes_total":
				c.Changes = int(m.GetCounter().GetValue())
			case "dealspot_redis_rebuilds_total":
				by := &c.Rebuilt
				if labels["outcome"] != "ok" {
					by = &c.Failed
				}
				if *by == nil {
					*by = map[string]int{}
				}
				(*by)[name] = int(m.GetCounter().GetValue())
			case "dealspot_redis_rebuild_duration_seconds":
				if c.Took == nil {
					c.Took = map[string]time.Duration{}
				}
				c.Took[name] = time.Duration(math.Round(m.GetHistogram().GetSampleSum() * float64(time.Second)))
			}
		}
	}
	return c
}
