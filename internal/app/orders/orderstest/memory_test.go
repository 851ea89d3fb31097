package orderstest_test

import (
	"sync/atomic"
	"testing"

	"github.com/dealspot/dealspot/internal/app/orders/orderstest"
	"github.com/dealspot/dealspot/internal/domain"
)

// The in-memory store meets the contract the relational one does.
func TestMemoryMeetsTheOrderStoreContract(t *testing.T) {
	t.Parallel()
	m := orderstest.NewMemory()
	var shops atomic.Int64
	orderstest.OrderStoreContract(t, func(*testing.T) orderstest.Store {
		shopID := shops.Add(1) // a shop of each case's own
		return orderstest.Store{Orders: m, Voucher: func(_ *testing.T, v domain.Voucher) domain.Voucher {
			v.ShopID = shopID
			return m.AddVoucher(v)
		}}
	})
}
