package entstore_test

import (
	"testing"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/app/shop"
	"github.com/dealspot/dealspot/internal/app/shop/shoptest"
	"github.com/dealspot/dealspot/internal/domain"
)

// The shops meet the shop contracts on every database.
func TestShopContracts(t *testing.T) {
	t.Parallel()
	onEveryStore(t, func(t *testing.T, open func(t *testing.T) *entstore.Store) {
		newStore := func(t *testing.T) shoptest.Store {
			s := open(t)
			u, err := s.Users().CreateUser(t.Context(), domain.User{Phone: "13900000042"})
			if err != nil {
				t.Fatal(err)
			}
			return shoptest.Store{Shops: s.Shops(), Owners: s.Shops(),
				Types: [2]int64{mustShopType(t, s, "美食").ID, mustShopType(t, s, "KTV").ID}, UserID: u.ID}
		}
		t.Run("repository", func(t *testing.T) {
			t.Parallel()
			shoptest.RepositoryContract(t, newStore)
		})
		t.Run("owners", func(t *testing.T) {
			t.Parallel()
			shoptest.OwnerStoreContract(t, newStore)
		})
	})
}

var (
	_ shop.Repository = (*entstore.Shops)(nil)
	_ shop.OwnerStore = (*entstore.Shops)(nil)
)
