package seckilltest

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/contracttest"
	"github.com/dealspot/dealspot/internal/app/orders/orderstest"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
)

// SaleUnitsOn is the flash sale's orders.Sales (seckill.SaleUnits) over stock, with what
// orderstest.SalesContract needs to set up and look at its sales: the flash sale is built
// on the in-memory fakes but for stock, and a sale reopened is one announced on its
// sold-out bus (MemSoldOutBus). Sales are opened in stock directly, for an hour around
// now, each pending user's claim reserved there.
func SaleUnitsOn(t *testing.T, stock seckill.SaleStock) orderstest.Sales {
	t.Helper()
	bus := NewMemSoldOutBus()
	var mu sync.Mutex
	reopened := map[int64]int{}
	stop, err := bus.Subscribe(context.Background(), func(voucherID int64, soldOut bool) {
		if !soldOut {
			mu.Lock()
			defer mu.Unlock()
			reopened[voucherID]++
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	cache := NewMemVoucherCache()
	queue := NewMemClaimQueue()
	svc, err := seckill.New(context.Background(), seckill.Config{MaxStock: 1000, Pages: domain.PageLimits{Default: 10, Max: 50}},
		seckill.Deps{Vouchers: NewMemVouchers(), Orders: orderstest.NewMemory(), Stock: stock, Publisher: queue,
			Republisher: queue, IDs: NewMemIDs(1), Status: NewMemStatusBus(), SoldOut: bus, Shops: NewMemShopOwners(),
			VoucherCache: cache, VoucherChanges: cache, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	return orderstest.Sales{Sales: svc.Units,
		Open: func(t *testing.T, s orderstest.SaleSetup) int64 {
			t.Helper()
			ctx := context.Background()
			now := time.Now()
			id := contracttest.NewID()
			st := seckill.SaleState{VoucherID: id, Stock: s.Stock + int64(len(s.Pending)), BeginTime: now.Add(-time.Hour),
				EndTime: now.Add(time.Hour), Holders: s.Holders}
			if ok, err := stock.Load(ctx, st, true); err != nil || !ok {
				t.Fatalf("load sale %d: %v, %v", id, ok, err)
			}
			for _, u := range s.Pending {
				r := seckill.Reservation{OrderID: contracttest.NewID(), UserID: u, VoucherID: id, At: now}
				if v, _, err := stock.Reserve(ctx, r); err != nil || v != seckill.Accepted {
					t.Fatalf("reserve a unit of sale %d for user %d: %v, %v", id, u, v, err)
				}
			}
			return id
		},
		Holders: func(t *testing.T, voucherID int64) []int64 {
			t.Helper()
			holders, err := stock.Holders(context.Background(), voucherID)
			if err != nil {
				t.Fatal(err)
			}
			return holders
		},
		Reopened: func(_ *testing.T, voucherID int64) int {
			mu.Lock()
			defer mu.Unlock()
			return reopened[voucherID]
		},
	}
}
