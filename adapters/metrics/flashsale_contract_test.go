package metrics_test

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dealspot/dealspot/adapters/metrics"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/app/seckill/seckilltest"
)

// The flash sale's metrics meet the Observer contract. Not parallel: the contract
// measures allocations.
func TestFlashSaleMetricsContract(t *testing.T) {
	seckilltest.ObserverContract(t, func(t *testing.T) seckill.Observer {
		m, err := metrics.NewFlashSaleMetrics(prometheus.NewRegistry())
		if err != nil {
			t.Fatal(err)
		}
		return m
	})
}
