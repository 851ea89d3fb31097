package entstore_test

import (
	"testing"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/app/auth/authtest"
)

// The session records take families copied from an earlier version as the
// SessionImports contract says, on every database.
func TestSessionImportsContract(t *testing.T) {
	t.Parallel()
	onEveryStore(t, func(t *testing.T, open func(t *testing.T) *entstore.Store) {
		authtest.SessionImportsContract(t, func(t *testing.T) authtest.SessionImporter { return open(t).Sessions() })
	})
}

var _ auth.SessionImports = (*entstore.Sessions)(nil)
