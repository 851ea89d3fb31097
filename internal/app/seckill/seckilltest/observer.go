package seckilltest

import (
	"testing"

	"github.com/dealspot/dealspot/internal/app/seckill"
)

// ObserverContract is what every seckill.Observer must do, as its doc comment says: take
// every outcome, reason and report, and count a claim without allocating. It does not
// run in parallel (testing.AllocsPerRun refuses to run beside other tests), so call it
// from a test that is not parallel either.
func ObserverContract(t *testing.T, newObserver func(t *testing.T) seckill.Observer) {
	t.Helper()
	o := newObserver(t)
	for _, c := range seckill.ClaimOutcomes() {
		o.Claimed(c)
	}
	for _, r := range seckill.FailReasons() {
		o.OrderFailed(r)
	}
	o.OrdersWritten(3)
	o.WriteFailed(2)
	o.Reconciled(seckill.ReconcileReport{SalesLoaded: 1, Settled: 2, Republished: 3, Failed: 4, Released: 5})
	for _, c := range seckill.ClaimOutcomes() {
		if allocs := testing.AllocsPerRun(100, func() { o.Claimed(c) }); allocs != 0 {
			t.Errorf("counting a claim %s allocates %v times, want none", c, allocs)
		}
	}
}
