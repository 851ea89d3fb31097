package localcache_test

import (
	"testing"

	"github.com/dealspot/dealspot/adapters/localcache"
	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/app/auth/authtest"
)

// The local cache meets the VerifiedTokens contract of the access-token cache.
func TestVerifiedTokensContract(t *testing.T) {
	t.Parallel()
	authtest.VerifiedTokensContract(t, func(t *testing.T) auth.VerifiedTokens {
		c, err := localcache.New(10_000)
		if err != nil {
			t.Fatal(err)
		}
		return c
	})
}
