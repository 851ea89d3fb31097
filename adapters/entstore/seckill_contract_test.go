package entstore_test

import (
	"testing"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/app/seckill/seckilltest"
	"github.com/dealspot/dealspot/internal/domain"
)

// The vouchers and the orders meet the seckill contracts on every database.
func TestSeckillContracts(t *testing.T) {
	t.Parallel()
	onEveryStore(t, func(t *testing.T, open func(t *testing.T) *entstore.Store) {
		newStore := func(t *testing.T) seckilltest.Store {
			s := open(t)
			shop, err := s.Shops().CreateShop(t.Context(), domain.Shop{Name: "shop", TypeID: mustShopType(t, s, "美食").ID, Longitude: 120.1, Latitude: 30.2})
			if err != nil {
				t.Fatal(err)
			}
			return seckilltest.Store{Vouchers: s.Vouchers(), Orders: s.Orders(), ShopID: shop.ID}
		}
		t.Run("vouchers", func(t *testing.T) {
			t.Parallel()
			seckilltest.VouchersContract(t, newStore)
		})
		t.Run("orders", func(t *testing.T) {
			t.Parallel()
			seckilltest.OrdersContract(t, newStore)
		})
	})
}

var (
	_ seckill.Vouchers = (*entstore.Vouchers)(nil)
	_ seckill.Orders   = (*entstore.Orders)(nil)
)
