package authtest_test

import (
	"testing"
	"time"

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

func TestMemRecordsImportsContract(t *testing.T) {
	t.Parallel()
	authtest.SessionImportsContract(t, func(*testing.T) authtest.ImportStore { return authtest.NewMemRecords() })
}

func TestMemCodeStoreContract(t *testing.T) {
	t.Parallel()
	authtest.CodeStoreContract(t, func(*testing.T) auth.CodeStore { return authtest.NewMemCodeStore(nil) })
}

func TestMemCodeStoreLimitsContract(t *testing.T) {
	t.Parallel()
	authtest.CodeStoreLimitsContract(t, func(_ *testing.T, now func() time.Time) auth.CodeStore {
		return authtest.NewMemCodeStore(now)
	})
}

func TestMemSessionCacheContract(t *testing.T) {
	t.Parallel()
	authtest.SessionCacheContract(t, func(*testing.T) auth.SessionCache { return authtest.NewMemSessionCache() })
}

func TestMemRateLimiterContract(t *testing.T) {
	t.Parallel()
	authtest.RateLimiterContract(t, func(_ *testing.T, now func() time.Time) auth.RateLimiter {
		return authtest.NewMemRateLimiter(now)
	})
}

func TestMemSenderContract(t *testing.T) {
	t.Parallel()
	authtest.CodeSenderContract(t, func(*testing.T) (auth.CodeSender, func() []authtest.Delivery) {
		s := &authtest.MemSender{}
		return s, s.Delivered
	})
}

func TestMemTokensContract(t *testing.T) {
	t.Parallel()
	authtest.VerifiedTokensContract(t, func(*testing.T) auth.VerifiedTokens { return &authtest.MemTokens{} })
}

func TestMemLegacySessionsContract(t *testing.T) {
	t.Parallel()
	authtest.LegacySessionsContract(t, func(*testing.T) authtest.LegacyStore {
		m := &authtest.MemLegacySessions{}
		return authtest.LegacyStore{LegacySessions: m, Leave: func(_ *testing.T, userID int64, familyID string, ttl time.Duration, tokens ...string) {
			m.Leave(auth.LegacyFamily{UserID: userID, FamilyID: familyID, TokenHash: tokens[len(tokens)-1],
				Spent: tokens[:len(tokens)-1], ExpiresAt: time.Now().Add(ttl)})
		}}
	})
}
