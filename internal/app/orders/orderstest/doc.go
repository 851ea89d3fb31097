// Package orderstest holds the contracts of the order store (orders.OrderStore), of
// the payment store (orders.PaymentStore, with its orders.LedgerReader), of the
// payment provider (orders.PaymentProvider) and of the flash sale's side of the orders
// (orders.Sales): suites every implementation of the ports runs, and the in-memory
// fakes that pass them too (Memory, MemoryPayments over its orders, MemProvider,
// MemSales), so that the fakes cannot drift from the real thing and app-level tests
// can run on them.
//
// Each contract takes a constructor, called once per case, and runs its cases in
// parallel; adapters on a shared server get distinct ids in every case.
package orderstest

import "github.com/dealspot/dealspot/internal/app/contracttest"

// newID returns an id no other case of this run uses.
func newID() int64 { return contracttest.NewID() }
