package entstore_test

import (
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/domain"
)

// The orders due a warning are the unpaid ones whose deadline falls in the window, not
// warned yet; of several nodes marking one order at once, one wins; a paid order is not
// marked; a mark taken back makes the order due again.
func TestExpiryWarningsMarkOnce(t *testing.T) {
	t.Parallel()
	onEveryStore(t, func(t *testing.T, open func(t *testing.T) *entstore.Store) {
		s := open(t)
		ctx := t.Context()
		sale := newSale(t, s, 10)
		now := time.Now().UTC().Truncate(time.Second)
		order := func(id int64, status domain.OrderStatus, deadline time.Time) {
			t.Helper()
			if _, err := s.Orders().CreateOrder(ctx, domain.VoucherOrder{ID: id, UserID: id, VoucherID: sale.ID, ShopID: sale.ShopID,
				Kind: domain.VoucherFlashSale, Status: status, PayDeadline: &deadline}); err != nil {
				t.Fatal(err)
			}
		}
		order(1, domain.OrderCreated, now.Add(4*time.Minute))  // due
		order(2, domain.OrderCreated, now.Add(10*time.Minute)) // not yet
		order(3, domain.OrderCreated, now.Add(-time.Minute))   // past its deadline
		order(4, domain.OrderPaid, now.Add(3*time.Minute))     // paid
		order(5, domain.OrderCreated, now.Add(2*time.Minute))  // due, sooner
		w := entstore.NewExpiryWarnings(s)
		due := func(what string, want ...int64) {
			t.Helper()
			got, err := w.DueWarnings(ctx, now, now.Add(5*time.Minute), 10)
			var ids []int64
			for _, o := range got {
				ids = append(ids, o.ID)
			}
			if err != nil || len(ids) != len(want) {
				t.Fatalf("%s: due %v, %v; want %v", what, ids, err, want)
			}
			for i := range want {
				if ids[i] != want[i] || got[i].UserID != want[i] {
					t.Fatalf("%s: due %v; want %v", what, ids, want)
				}
			}
		}
		due("at first", 5, 1)
		var wg sync.WaitGroup
		var mu sync.Mutex
		wins := 0
		for range 4 {
			wg.Go(func() {
				ok, err := w.MarkWarned(ctx, 1, now)
				if err != nil {
					t.Error(err)
				}
				if ok {
					mu.Lock()
					wins++
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		if wins != 1 {
			t.Fatalf("%d of 4 marks of one order won; want 1", wins)
		}
		due("after order 1 was marked", 5)
		if ok, err := w.MarkWarned(ctx, 4, now); ok || err != nil {
			t.Fatalf("marking the paid order: %v, %v", ok, err)
		}
		if err := w.UnmarkWarned(ctx, 1); err != nil {
			t.Fatal(err)
		}
		due("after the mark was taken back", 5, 1)
	})
}
