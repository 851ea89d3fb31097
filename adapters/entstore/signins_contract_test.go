package entstore_test

import (
	"testing"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/app/social/signins"
	"github.com/dealspot/dealspot/internal/app/social/socialtest"
)

// The sign-ins meet the store's contract on every database.
func TestSignInStoreContract(t *testing.T) {
	t.Parallel()
	onEveryStore(t, func(t *testing.T, open func(t *testing.T) *entstore.Store) {
		socialtest.SignInStoreContract(t, func(t *testing.T) signins.SignInStore { return open(t).SignIns() })
	})
}
