package shoptest_test

import (
	"testing"

	"github.com/dealspot/dealspot/internal/app/shop"
	"github.com/dealspot/dealspot/internal/app/shop/shoptest"
	"github.com/dealspot/dealspot/internal/domain"
)

// memStore is a fresh in-memory store with two shop types and one user.
func memStore(*testing.T) shoptest.Store {
	s := shoptest.NewMemShops()
	food := s.CreateShopType(domain.ShopType{Name: "food", Sort: 2})
	ktv := s.CreateShopType(domain.ShopType{Name: "KTV", Sort: 1})
	s.AddUser(42)
	return shoptest.Store{Shops: s, Owners: s, Types: [2]int64{food.ID, ktv.ID}, UserID: 42}
}

// The fakes the use-case tests run on meet the contracts of the adapters they stand for.
func TestMemShopsContract(t *testing.T) {
	t.Parallel()
	shoptest.RepositoryContract(t, memStore)
	shoptest.OwnerStoreContract(t, memStore)
}

func TestMemGeoIndexContract(t *testing.T) {
	t.Parallel()
	shoptest.GeoIndexContract(t, func(*testing.T) shop.GeoIndex { return shoptest.NewMemGeoIndex() })
}

func TestMemShopCacheContract(t *testing.T) {
	t.Parallel()
	shoptest.ShopCacheContract(t, func(*testing.T) shoptest.ShopCache { return shoptest.NewMemShopCache() })
}

func TestMemShopTypeCacheContract(t *testing.T) {
	t.Parallel()
	shoptest.ShopTypeCacheContract(t, func(*testing.T) shop.ShopTypeCache { return shoptest.NewMemShopTypeCache() })
}
