package authtest_test

import (
	"testing"

	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/app/auth/authtest"
)

// The fakes the use-case tests run on meet the contracts of the adapters they stand for.
func TestMemUsersContract(t *testing.T) {
	t.Parallel()
	authtest.UsersContract(t, func(*testing.T) auth.Users { return authtest.NewMemUsers() })
}

func TestMemRecordsContract(t *testing.T) {
	t.Parallel()
	authtest.SessionRecordsContract(t, func(*testing.T) auth.SessionRecords { return authtest.NewMemRecords() })
}
