// Package orderstest holds the contract of the order store (orders.OrderStore): a suite
// every adapter of the port runs, and the in-memory fake that passes it too, so that the
// fake cannot drift from the real thing and app-level tests can run on it.
//
// The contract takes a constructor, called once per case, and runs its cases in
// parallel; adapters on a shared server get distinct ids in every case.
package orderstest

import "github.com/dealspot/dealspot/internal/app/contracttest"

// newID returns an id no other case of this run uses.
func newID() int64 { return contracttest.NewID() }
