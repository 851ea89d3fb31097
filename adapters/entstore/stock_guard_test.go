package entstore_test

import (
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// Batches that the stock cannot all cover, written at once, must together never take
// more than the stock: the database guard is what makes overselling impossible whatever
// Redis says.
func TestConcurrentShortBatchesNeverOversell(t *testing.T) {
	t.Parallel()
	for name, open := range everyStore {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := open(t)
			ctx := t.Context()
			shop, err := s.Shops().CreateShop(ctx, domain.Shop{Name: "shop", TypeID: mustShopType(t, s, "美食").ID, Longitude: 120.1, Latitude: 30.2})
			if err != nil {
				t.Fatal(err)
			}
			const (
				stock   = 7
				batches = 8
				batch   = 5
				rounds  = 25
			)
			orders := s.Orders()
			nextID := int64(1)
			for round := range rounds {
				v, err := s.Vouchers().CreateVoucher(ctx, domain.Voucher{ShopID: shop.ID, Title: "sale", PayValue: 1, ActualValue: 2,
					Kind: domain.VoucherFlashSale, Status: domain.VoucherOnSale,
					FlashSale: &domain.FlashSale{Stock: stock, BeginTime: time.Now().Add(-time.Hour), EndTime: time.Now().Add(time.Hour)}})
				if err != nil {
					t.Fatal(err)
				}
				var (
					wg      sync.WaitGroup
					mu      sync.Mutex
					created int
					start   = make(chan struct{})
				)
				for b := range batches {
					cs := make([]domain.Claim, batch)
					for i := range cs {
						cs[i] = domain.Claim{OrderID: nextID, UserID: int64(b*batch + i + 1), VoucherID: v.ID, ClaimedAt: time.Now()}
						nextID++
					}
					wg.Add(1)
					go func() {
						defer wg.Done()
						<-start
						res, err := orders.WriteClaims(ctx, cs, 15*time.Minute)
						if err != nil {
							t.Error(err)
							return
						}
						mu.Lock()
						created += len(res.Created)
						mu.Unlock()
					}()
				}
				close(start)
				wg.Wait()
				left, err := orders.SaleStock(ctx, v.ID)
				if err != nil {
					t.Fatal(err)
				}
				counts, err := orders.CountOrders(ctx, v.ID)
				if err != nil {
					t.Fatal(err)
				}
				if left < 0 || counts.Created > stock || int64(created) != counts.Created || left+counts.Created != stock {
					t.Fatalf("round %d: stock left %d, %d orders (%d reported created) for a stock of %d", round, left, counts.Created, created, stock)
				}
			}
		})
	}
}
