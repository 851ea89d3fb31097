package redis_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
	"github.com/dealspot/dealspot/internal/app/auth"
)

// The limits of the code store are walked through in authtest.CodeStoreLimitsContract
// (see auth_contract_test.go); here is what only Redis has: the keys' layout.

// randomPhone returns a fresh mobile number, so test cases sharing a server stay apart.
func randomPhone() string {
	return fmt.Sprintf("138%08d", rand.IntN(100_000_000))
}

func TestCodeStoreKeysShareTheHashTag(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		store := redis.NewCodeStore(conn.Client)
		phone := randomPhone()
		if _, _, err := store.Issue(ctx, phone, "2001:db8::/64", "right", auth.DefaultConfig().Send); err != nil {
			t.Fatal(err)
		}
		if _, _, err := store.Verify(ctx, phone, "2001:db8::/64", "wrong", auth.DefaultConfig().Verify); err != nil {
			t.Fatal(err)
		}
		keys := redistest.Keys(t, conn, "*"+phone+"*")
		if len(keys) < 2 {
			t.Fatalf("keys %v: want code and sends", keys)
		}
		for _, k := range keys {
			if !strings.HasPrefix(k, "login:{"+phone+"}:") {
				t.Errorf("key %q lacks the hash tag {%s}", k, phone)
			}
		}
	})
}
