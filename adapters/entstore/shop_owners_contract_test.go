package entstore_test

import (
	"testing"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/app/seckill/seckilltest"
	"github.com/dealspot/dealspot/internal/domain"
)

// The shops tell a shop's owner as the flash sale's ShopOwners contract says, on every
// database.
func TestShopOwnersContract(t *testing.T) {
	t.Parallel()
	onEveryStore(t, func(t *testing.T, open func(t *testing.T) *entstore.Store) {
		seckilltest.ShopOwnersContract(t, func(t *testing.T) seckilltest.Shops {
			s := open(t)
			ctx := t.Context()
			typeID := mustShopType(t, s, "美食").ID
			var ids [2]int64
			for i := range ids {
				sh, err := s.Shops().CreateShop(ctx, domain.Shop{Name: "shop", TypeID: typeID, Longitude: 120.1, Latitude: 30.2})
				if err != nil {
					t.Fatal(err)
				}
				ids[i] = sh.ID
			}
			u, err := s.Users().CreateUser(ctx, domain.User{Phone: "13900000043"})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Shops().SetShopOwner(ctx, ids[0], u.ID); err != nil {
				t.Fatal(err)
			}
			return seckilltest.Shops{Owners: s.Shops(), Owned: ids[0], Unowned: ids[1], Owner: u.ID}
		})
	})
}

var _ seckill.ShopOwners = (*entstore.Shops)(nil)
