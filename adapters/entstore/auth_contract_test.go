package entstore_test

import (
	"testing"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/app/auth/authtest"
)

// The users, the session records and the session imports meet the auth contracts on every database.
func TestAuthContracts(t *testing.T) {
	t.Parallel()
	onEveryStore(t, func(t *testing.T, open func(t *testing.T) *entstore.Store) {
		t.Run("users", func(t *testing.T) {
			t.Parallel()
			authtest.UsersContract(t, func(t *testing.T) auth.Users { return open(t).Users() })
		})
		t.Run("session records", func(t *testing.T) {
			t.Parallel()
			authtest.SessionRecordsContract(t, func(t *testing.T) auth.SessionRecords { return open(t).Sessions() })
		})
		t.Run("session imports", func(t *testing.T) {
			t.Parallel()
			authtest.SessionImportsContract(t, func(t *testing.T) authtest.ImportStore { return open(t).Sessions() })
		})
	})
}

var (
	_ auth.Users          = (*entstore.Users)(nil)
	_ auth.SessionRecords = (*entstore.Sessions)(nil)
	_ auth.SessionImports = (*entstore.Sessions)(nil)
)
