package entstore_test

import (
	"testing"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/app/auth/authtest"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// The users and the session records meet the auth contracts on every database.
func TestAuthContracts(t *testing.T) {
	t.Parallel()
	for name, open := range everyStore {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if name == "postgres" {
				testsupport.Require(t, testsupport.EnvPostgres)
			}
			t.Run("users", func(t *testing.T) {
				t.Parallel()
				authtest.UsersContract(t, func(t *testing.T) auth.Users { return open(t).Users() })
			})
			t.Run("session records", func(t *testing.T) {
				t.Parallel()
				authtest.SessionRecordsContract(t, func(t *testing.T) auth.SessionRecords { return open(t).Sessions() })
			})
		})
	}
}

var (
	_ auth.Users          = (*entstore.Users)(nil)
	_ auth.SessionRecords = (*entstore.Sessions)(nil)
)
