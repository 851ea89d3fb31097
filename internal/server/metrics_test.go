package server

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

func TestOperationLabelsStayBounded(t *testing.T) {
	t.Parallel()
	m := NewMetrics()
	ctx := context.Background()
	m.ObserveOperation(ctx, "Claim", time.Millisecond, 0)
	m.ObserveOperation(ctx, "Claim", time.Millisecond, 1)
	m.ObserveOperation(ctx, "Claim", time.Millisecond, 0)
	m.ObserveOperation(ctx, "no spaces allowed", time.Millisecond, 0)
	for i := range maxOperationNames + 10 {
		m.ObserveOperation(ctx, fmt.Sprintf("Op%d", i), time.Millisecond, 0)
	}
	for _, c := range []struct {
		op, outcome string
		want        float64
	}{
		{"Claim", "ok", 2}, {"Claim", "error", 1},
		{"Op0", "ok", 1},
		// The odd name and the eleven names past the cap (Claim took one place).
		{"other", "ok", 12},
	} {
		if got := testutil.ToFloat64(m.operations.WithLabelValues(c.op, c.outcome)); got != c.want {
			t.Errorf("operations{%s,%s} = %v, want %v", c.op, c.outcome, got, c.want)
		}
	}
	if n := testutil.CollectAndCount(m.operations); n != 2*(maxOperationNames+1) {
		t.Errorf("%d operation series, want %d (every name with both outcomes, and other)", n, 2*(maxOperationNames+1))
	}
	m.observeHTTP("/graphql", 200)
	m.observeHTTP("/graphql", 200)
	m.observeHTTP("/graphql", 413)
	if got := testutil.ToFloat64(m.httpReqs.WithLabelValues("/graphql", "200")); got != 2 {
		t.Errorf("http 200s = %v, want 2", got)
	}
}
