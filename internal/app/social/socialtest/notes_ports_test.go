package socialtest_test

import (
	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/app/auth/authtest"
	"github.com/dealspot/dealspot/internal/app/shop"
	"github.com/dealspot/dealspot/internal/app/shop/shoptest"
	"github.com/dealspot/dealspot/internal/app/social/notes"
)

// The notes ports that are another area's ports cut down are held by that area's
// contracts, on its adapters and fakes: notes.Shops by shoptest.RepositoryContract,
// notes.ShopInvalidator by shoptest.ShopCacheContract, notes.RateLimiter by
// authtest.RateLimiterContract. Likes, Publisher and ViewCounter are the likes, follows
// and visitors packages' own use cases, no adapters.
var (
	_ notes.Shops           = shop.Repository(nil)
	_ notes.Shops           = (*shoptest.MemShops)(nil)
	_ notes.ShopInvalidator = shop.Invalidator(nil)
	_ notes.ShopInvalidator = (*shoptest.MemShopCache)(nil)
	_ notes.RateLimiter     = auth.RateLimiter(nil)
	_ notes.RateLimiter     = (*authtest.MemRateLimiter)(nil)
)
