package entstore_test

import (
	"testing"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/app/orders/orderstest"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/app/seckill/seckilltest"
	"github.com/dealspot/dealspot/internal/domain"
)

// newShop creates a shop for a case's vouchers to belong to.
func newShop(t *testing.T, s *entstore.Store) domain.Shop {
	t.Helper()
	shop, err := s.Shops().CreateShop(t.Context(), domain.Shop{Name: "shop", TypeID: mustShopType(t, s, "美食").ID, Longitude: 120.1, Latitude: 30.2})
	if err != nil {
		t.Fatal(err)
	}
	return shop
}

// The vouchers meet the seckill contract on every database.
func TestSeckillContracts(t *testing.T) {
	t.Parallel()
	onEveryStore(t, func(t *testing.T, open func(t *testing.T) *entstore.Store) {
		seckilltest.VouchersContract(t, func(t *testing.T) seckilltest.Store {
			s := open(t)
			return seckilltest.Store{Vouchers: s.Vouchers(), ShopID: newShop(t, s).ID}
		})
	})
}

// orderStore is the order store of s, its vouchers under a new shop of s.
func orderStore(t *testing.T, s *entstore.Store) orderstest.Store {
	t.Helper()
	shopID := newShop(t, s).ID
	return orderstest.Store{Orders: s.Orders(), Voucher: func(t *testing.T, v domain.Voucher) domain.Voucher {
		t.Helper()
		v.ShopID = shopID
		stored, err := s.Vouchers().CreateVoucher(t.Context(), v)
		if err != nil {
			t.Fatalf("create voucher: %v", err)
		}
		return stored
	}, Sold: func(t *testing.T, shopID int64) int64 {
		t.Helper()
		shop, err := s.Shops().Shop(t.Context(), shopID)
		if err != nil {
			t.Fatalf("read shop %d: %v", shopID, err)
		}
		return int64(shop.Sold)
	}}
}

// The one order store meets its contract on every database.
func TestOrderStoreContract(t *testing.T) {
	t.Parallel()
	onEveryStore(t, func(t *testing.T, open func(t *testing.T) *entstore.Store) {
		orderstest.OrderStoreContract(t, func(t *testing.T) orderstest.Store { return orderStore(t, open(t)) })
	})
}

// The payments and their ledger meet their contract on every database, each case on a
// database of its own.
func TestPaymentStoreContract(t *testing.T) {
	t.Parallel()
	onEveryStore(t, func(t *testing.T, open func(t *testing.T) *entstore.Store) {
		orderstest.PaymentStoreContract(t, func(t *testing.T) orderstest.PaymentStore {
			s := open(t)
			return orderstest.PaymentStore{Store: orderStore(t, s), Payments: s.Payments(), Ledger: s.Payments()}
		})
	})
}

var (
	_ seckill.Vouchers    = (*entstore.Vouchers)(nil)
	_ orders.OrderStore   = (*entstore.Orders)(nil)
	_ orders.PaymentStore = (*entstore.Payments)(nil)
	_ orders.LedgerReader = (*entstore.Payments)(nil)
)
