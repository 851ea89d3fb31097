package inboxtest_test

import (
	"testing"

	"github.com/dealspot/dealspot/internal/app/inbox"
	"github.com/dealspot/dealspot/internal/app/inbox/inboxtest"
)

// The fakes the inbox's tests run on meet the contracts of the adapters they stand for.
func TestMemStoreContract(t *testing.T) {
	t.Parallel()
	inboxtest.StoreContract(t, func(*testing.T) inbox.Store { return inboxtest.NewMemStore() })
}

func TestMemBusContract(t *testing.T) {
	t.Parallel()
	inboxtest.BusContract(t, func(*testing.T) func() inbox.Bus { return inboxtest.NewMemBusNetwork() })
}
