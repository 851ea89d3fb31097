package regentest_test

import (
	"testing"

	"github.com/dealspot/dealspot/internal/app/regen"
	"github.com/dealspot/dealspot/internal/app/regen/regentest"
)

// The fake the watcher's tests run on meets the contract of the Redis marker.
func TestMemMarkerContract(t *testing.T) {
	t.Parallel()
	regentest.MarkerContract(t, func(*testing.T) regentest.MarkerStore {
		m := &regentest.MemMarker{}
		return regentest.MarkerStore{New: func() regen.Marker { return m }, Wipe: func(*testing.T) { m.Wipe() }}
	})
}

// The fake the watcher's tests count with meets the contract of the metrics.
func TestMemObserverContract(t *testing.T) {
	t.Parallel()
	regentest.ObserverContract(t, func(*testing.T) regentest.Observer {
		o := &regentest.MemObserver{}
		return regentest.Observer{Observer: o, Counts: func(*testing.T) regentest.Counts { return o.Counts() }}
	})
}
