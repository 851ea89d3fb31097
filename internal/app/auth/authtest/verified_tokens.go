package authtest

import (
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/auth"
)

// VerifiedTokensContract is what every auth.VerifiedTokens must do, as its doc comment
// says, well within its bound and its ttls: a value set is got back, a key never
// set is missed, a second set replaces the first, and calls from many goroutines at once
// are safe. newTokens returns a cache of its own.
func VerifiedTokensContract(t *testing.T, newTokens func(t *testing.T) auth.VerifiedTokens) {
	t.Helper()
	t.Run("a value set is got back; a key never set is missed", func(t *testing.T) {
		t.Parallel()
		c := newTokens(t)
		if v, ok := c.Get("never set"); ok {
			t.Fatalf("get of a key never set = %v, want a miss", v)
		}
		c.Set("token", 42, time.Minute)
		if v, ok := c.Get("token"); !ok || v != 42 {
			t.Fatalf("get = %v, %v; want 42", v, ok)
		}
		c.Set("token", "again", time.Minute)
		if v, ok := c.Get("token"); !ok || v != "again" {
			t.Fatalf("get after a second set = %v, %v; want the second value", v, ok)
		}
	})
	t.Run("many goroutines at once", func(t *testing.T) {
		t.Parallel()
		c := newTokens(t)
		var wg sync.WaitGroup
		for g := range 8 {
			wg.Go(func() {
				for i := range 100 {
					key := strconv.Itoa(g*1000 + i)
					c.Set(key, i, time.Minute)
					if v, ok := c.Get(key); ok && v != i {
						t.Errorf("get %s = %v, want %d", key, v, i)
					}
				}
			})
		}
		wg.Wait()
	})
}
