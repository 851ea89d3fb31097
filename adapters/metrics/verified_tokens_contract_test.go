package metrics_test

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dealspot/dealspot/adapters/metrics"
	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/app/auth/authtest"
)

// The counted token cache meets the VerifiedTokens contract of the cache it wraps.
func TestCountedTokensContract(t *testing.T) {
	t.Parallel()
	authtest.VerifiedTokensContract(t, func(t *testing.T) auth.VerifiedTokens {
		m, err := metrics.NewCacheMetrics(prometheus.NewRegistry())
		if err != nil {
			t.Fatal(err)
		}
		return metrics.NewCountedTokens(&authtest.MemTokens{}, m)
	})
}
