package entstore_test

import (
	"errors"
	"fmt"
	"sync"
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
			if _, _, err := s.Shops().SetShopOwner(ctx, ids[0], u.ID); err != nil {
				t.Fatal(err)
			}
			return seckilltest.Shops{Owners: s.Shops(), Owned: ids[0], Unowned: ids[1], Owner: u.ID}
		})
	})
}

var _ seckill.ShopOwners = (*entstore.Shops)(nil)

// A MERCHANT who owns no shop is demoted, one who owns one is not, nobody else ever is;
// and a demotion racing a new shop for the same user never leaves them a USER who runs
// a shop, on every database.
func TestDemoteMerchantWithoutShops(t *testing.T) {
	t.Parallel()
	onEveryStore(t, func(t *testing.T, open func(t *testing.T) *entstore.Store) {
		s := open(t)
		ctx := t.Context()
		typeID := mustShopType(t, s, "美食").ID
		newShop := func() int64 {
			sh, err := s.Shops().CreateShop(ctx, domain.Shop{Name: "shop", TypeID: typeID, Longitude: 120.1, Latitude: 30.2})
			if err != nil {
				t.Fatal(err)
			}
			return sh.ID
		}
		users := s.Users()
		newUser := func(phone string, role domain.Role) domain.User {
			u, err := users.CreateUser(ctx, domain.User{Phone: phone, Role: role})
			if err != nil {
				t.Fatal(err)
			}
			return u
		}
		demote := func(u domain.User, want bool) {
			t.Helper()
			got, demoted, err := users.DemoteMerchantWithoutShops(ctx, u.ID)
			if err != nil || demoted != want {
				t.Fatalf("demote %s user %d: %+v, %v, %v; want demoted %v", u.Role, u.ID, got, demoted, err, want)
			}
			if want && got.Role != domain.RoleUser {
				t.Fatalf("demoted user is %s", got.Role)
			}
		}
		m := newUser("13900000071", domain.RoleMerchant)
		shop := newShop()
		if _, _, err := s.Shops().SetShopOwner(ctx, shop, m.ID); err != nil {
			t.Fatal(err)
		}
		demote(m, false) // owns a shop
		other := newUser("13900000072", domain.RoleUser)
		if _, previous, err := s.Shops().SetShopOwner(ctx, shop, other.ID); err != nil || previous != m.ID {
			t.Fatalf("hand the shop over: previous %d, %v", previous, err)
		}
		demote(m, true)
		demote(m, false) // a USER already
		demote(newUser("13900000073", domain.RoleAdmin), false)
		if _, _, err := users.DemoteMerchantWithoutShops(ctx, 1<<40); !errors.Is(err, domain.ErrNotFound) {
			t.Fatalf("an unknown user: %v, want domain.ErrNotFound", err)
		}

		// A demotion racing a new shop, as SetOwner runs them: the owner is written, then
		// the new owner promoted (if a USER).
		for i := range 10 {
			u := newUser(fmt.Sprintf("139000001%02d", i), domain.RoleMerchant)
			shop := newShop()
			var wg sync.WaitGroup
			wg.Add(2)
			go func() {
				defer wg.Done()
				if _, _, err := users.DemoteMerchantWithoutShops(ctx, u.ID); err != nil {
					t.Error(err)
				}
			}()
			go func() {
				defer wg.Done()
				if _, _, err := s.Shops().SetShopOwner(ctx, shop, u.ID); err != nil {
					t.Error(err)
				}
				got, err := users.User(ctx, u.ID)
				if err == nil && got.Role == domain.RoleUser {
					_, err = users.SetRoleByID(ctx, u.ID, domain.RoleMerchant)
				}
				if err != nil {
					t.Error(err)
				}
			}()
			wg.Wait()
			if got, err := users.User(ctx, u.ID); err != nil || got.Role != domain.RoleMerchant {
				t.Fatalf("round %d: the owner of a shop is %+v, %v; want a MERCHANT", i, got, err)
			}
		}
	})
}
