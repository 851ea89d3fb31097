package metrics_test

import (
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dealspot/dealspot/adapters/metrics"
	"github.com/dealspot/dealspot/internal/readcache"
)

// samples gathers reg as "name{label=value,...} count" lines, sorted.
func samples(t *testing.T, reg *prometheus.Registry) []string {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range families {
		if f.GetType().String() != "COUNTER" {
			t.Errorf("%s is a %s, want a counter", f.GetName(), f.GetType())
		}
		for _, m := range f.GetMetric() {
			var labels []string
			for _, l := range m.GetLabel() {
				labels = append(labels, l.GetName()+"="+l.GetValue())
			}
			out = append(out, f.GetName()+"{"+strings.Join(labels, ",")+"} "+
				strconv.FormatFloat(m.GetCounter().GetValue(), 'f', -1, 64))
		}
	}
	sort.Strings(out)
	return out
}

func TestCacheMetricsCountPerCacheAndLayer(t *testing.T) {
	t.Parallel()
	reg := prometheus.NewRegistry()
	m, err := metrics.NewCacheMetrics(reg)
	if err != nil {
		t.Fatal(err)
	}
	m.Hit("shop", readcache.LayerLocal)
	m.Hit("shop", readcache.LayerLocal)
	m.Hit("shop", readcache.LayerRemote)
	m.Miss("shop", readcache.LayerLocal)
	m.Miss("voucher", readcache.LayerRemote)
	m.Load("shop")
	m.LockWait("shop")

	// Registering again on the same registry shares the counters.
	again, err := metrics.NewCacheMetrics(reg)
	if err != nil {
		t.Fatalf("second NewCacheMetrics: %v", err)
	}
	again.Load("shop")

	want := []string{
		"dealspot_cache_hits_total{cache=shop,layer=l1} 2",
		"dealspot_cache_hits_total{cache=shop,layer=l2} 1",
		"dealspot_cache_loads_total{cache=shop} 2",
		"dealspot_cache_lock_waits_total{cache=shop} 1",
		"dealspot_cache_misses_total{cache=shop,layer=l1} 1",
		"dealspot_cache_misses_total{cache=voucher,layer=l2} 1",
	}
	got := samples(t, reg)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("gathered:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
