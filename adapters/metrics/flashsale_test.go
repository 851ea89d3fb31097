package metrics_test

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/dealspot/dealspot/adapters/metrics"
	"github.com/dealspot/dealspot/internal/app/seckill"
)

// Every outcome and reason has its own series from the start, and counting a claim
// allocates nothing: the accept path pays one atomic add.
func TestFlashSaleMetricsArePreparedAndFree(t *testing.T) {
	// Not parallel: AllocsPerRun refuses to run beside other tests.
	reg := prometheus.NewRegistry()
	m, err := metrics.NewFlashSaleMetrics(reg)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := testutil.GatherAndCount(reg, "dealspot_claims_total"); err != nil || n != len(seckill.ClaimOutcomes()) {
		t.Errorf("claim series = %d, %v; want one per outcome (%d)", n, err, len(seckill.ClaimOutcomes()))
	}
	if n, err := testutil.GatherAndCount(reg, "dealspot_orders_failed_total"); err != nil || n != len(seckill.FailReasons()) {
		t.Errorf("failed-order series = %d, %v; want one per reason (%d)", n, err, len(seckill.FailReasons()))
	}
	seen := map[string]bool{}
	for _, o := range seckill.ClaimOutcomes() {
		if seen[o.String()] {
			t.Errorf("two outcomes named %s", o)
		}
		seen[o.String()] = true
	}
	if allocs := testing.AllocsPerRun(1000, func() { m.Claimed(seckill.ClaimAccepted) }); allocs != 0 {
		t.Errorf("counting a claim allocates %v times", allocs)
	}
	m.Claimed(seckill.ClaimSoldOut)
	m.OrdersWritten(3)
	m.OrderFailed(seckill.FailPoison)
	m.Reconciled(seckill.ReconcileReport{StockRepaired: 1, HoldersRepaired: 2})
	for _, c := range []struct {
		name string
		got  float64
		want float64
	}{
		{"accepted", counter(t, reg, "dealspot_claims_total", "accepted"), 1001},
		{"sold out", counter(t, reg, "dealspot_claims_total", "sold_out"), 1},
		{"written", counter(t, reg, "dealspot_orders_written_total", ""), 3},
		{"poison", counter(t, reg, "dealspot_orders_failed_total", "poison"), 1},
		{"holders", counter(t, reg, "dealspot_reconciler_repairs_total", "holders"), 2},
	} {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}

func BenchmarkClaimedAccepted(b *testing.B) {
	m, err := metrics.NewFlashSaleMetrics(prometheus.NewRegistry())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			m.Claimed(seckill.ClaimAccepted)
		}
	})
}

// counter returns the value of name's series whose only label value is label ("" for
// a counter without labels).
func counter(t *testing.T, reg *prometheus.Registry, name, label string) float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.GetMetric() {
			if label == "" && len(m.GetLabel()) == 0 || len(m.GetLabel()) == 1 && m.GetLabel()[0].GetValue() == label {
				return m.GetCounter().GetValue()
			}
		}
	}
	t.Fatalf("no %s{%s}", name, label)
	return 0
}
