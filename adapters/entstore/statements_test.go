package entstore_test

import (
	"sync/atomic"
	"testing"

	"github.com/dealspot/dealspot/adapters/entstore"
)

// TestStatementsAreCounted: every statement is counted on the store, and on the counter
// of the context it was sent with, in transactions too.
func TestStatementsAreCounted(t *testing.T) {
	t.Parallel()
	onEveryStore(t, func(t *testing.T, open func(t *testing.T) *entstore.Store) {
		s := open(t)
		var n atomic.Int64
		ctx := entstore.WithStatementCounter(t.Context(), &n)
		before := s.Statements()
		if _, err := s.Shops().ShopsByIDs(ctx, []int64{1, 2, 3}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Users().UsersByIDs(ctx, []int64{1}); err != nil {
			t.Fatal(err)
		}
		if got := n.Load(); got != 2 {
			t.Errorf("two reads counted %d statements on their context", got)
		}
		if got := s.Statements() - before; got < 2 {
			t.Errorf("the store counted %d statements, want at least 2", got)
		}
		// Outside the context nothing is added to its counter.
		if _, err := s.Shops().ShopsByIDs(t.Context(), []int64{1}); err != nil {
			t.Fatal(err)
		}
		if got := n.Load(); got != 2 {
			t.Errorf("a read without the counter was counted: %d", got)
		}
	})
}
