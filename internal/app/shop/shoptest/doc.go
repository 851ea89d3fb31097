// Package shoptest holds the contracts of the shop ports: suites every adapter of a port
// runs (and every fake of it, so that fakes cannot drift from the real thing), and the
// in-memory fakes that pass them.
//
// A contract takes a constructor, called once per case, and may run its cases in
// parallel; adapters on a shared server get distinct ids in every case.
package shoptest

import "github.com/dealspot/dealspot/internal/app/contracttest"

// newID returns an id no other case of this run uses.
func newID() int64 { return contracttest.NewID() }
