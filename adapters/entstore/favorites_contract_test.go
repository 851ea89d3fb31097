package entstore_test

import (
	"testing"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/app/favorites"
	"github.com/dealspot/dealspot/internal/app/favorites/favoritestest"
)

// The favourites' store meets its contract on every database.
func TestFavoritesStoreContract(t *testing.T) {
	t.Parallel()
	onEveryStore(t, func(t *testing.T, open func(t *testing.T) *entstore.Store) {
		favoritestest.StoreContract(t, func(t *testing.T) favorites.Store { return entstore.NewFavorites(open(t)) })
	})
}
