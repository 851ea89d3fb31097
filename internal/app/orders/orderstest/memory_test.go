package orderstest_test

import (
	"sync/atomic"
	"testing"

	"github.com/dealspot/dealspot/internal/app/contracttest"
	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/app/orders/orderstest"
	"github.com/dealspot/dealspot/internal/domain"
)

// The in-memory store meets the contract the relational one does.
func TestMemoryMeetsTheOrderStoreContract(t *testing.T) {
	t.Parallel()
	m := orderstest.NewMemory()
	orderstest.OrderStoreContract(t, func(*testing.T) orderstest.Store {
		shopID := newShopID()
		return orderstest.Store{Orders: m, Voucher: func(_ *testing.T, v domain.Voucher) domain.Voucher {
			v.ShopID = shopID
			return m.AddVoucher(v)
		}, Sold: func(_ *testing.T, shopID int64) int64 { return m.Sold(shopID) }}
	})
}

// The in-memory payments meet the contract the relational ones do.
func TestMemoryMeetsThePaymentStoreContract(t *testing.T) {
	t.Parallel()
	orderstest.PaymentStoreContract(t, func(*testing.T) orderstest.PaymentStore {
		m := orderstest.NewMemory() // a store of the case's own
		payments := orderstest.NewMemoryPayments(m)
		shopID := newShopID()
		return orderstest.PaymentStore{Payments: payments, Ledger: payments, Store: orderstest.Store{Orders: m,
			Voucher: func(_ *testing.T, v domain.Voucher) domain.Voucher {
				v.ShopID = shopID
				return m.AddVoucher(v)
			}, Sold: func(_ *testing.T, shopID int64) int64 { return m.Sold(shopID) }}}
	})
}

// shops numbers the shops the cases' vouchers belong to.
var shops atomic.Int64

// newShopID returns a shop of the case's own.
func newShopID() int64 { return shops.Add(1) }

// The in-memory provider meets the contract the simulated one does.
func TestMemProviderMeetsThePaymentProviderContract(t *testing.T) {
	t.Parallel()
	orderstest.PaymentProviderContract(t, func(*testing.T) orderstest.PaymentProvider {
		p := orderstest.NewMemProvider()
		return orderstest.PaymentProvider{PaymentProvider: p, Declined: 1000 + orderstest.MemDeclinedCents, Refunded: p.Refunded,
			Notified: func(t *testing.T, n int) []orders.Notification {
				t.Helper()
				got := p.Notifications()
				if len(got) < n {
					t.Fatalf("%d notifications, want %d", len(got), n)
				}
				return got
			}}
	})
}

// The in-memory sales meet the contract the flash sale's SaleUnits does on each gate.
func TestMemSalesMeetsTheSalesContract(t *testing.T) {
	t.Parallel()
	orderstest.SalesContract(t, func(*testing.T) orderstest.Sales {
		m := orderstest.NewMemSales()
		return orderstest.Sales{Sales: m,
			Open: func(_ *testing.T, s orderstest.SaleSetup) int64 {
				id := contracttest.NewID()
				m.Open(id, s)
				return id
			},
			Holders:  func(_ *testing.T, voucherID int64) []int64 { return m.Holders(voucherID) },
			Reopened: func(_ *testing.T, voucherID int64) int { return m.Reopened(voucherID) }}
	})
}
