package seckilltest_test

import (
	"sync/atomic"
	"testing"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/app/seckill/seckilltest"
	"github.com/dealspot/dealspot/internal/domain"
)

// The fakes the use-case tests run on meet the contracts of the adapters they stand for.
func TestMemStockGateContract(t *testing.T) {
	t.Parallel()
	seckilltest.SaleStockContract(t, func(*testing.T) seckill.SaleStock { return seckilltest.NewMemStockGate() })
}

func TestMemSoldOutBusContract(t *testing.T) {
	t.Parallel()
	seckilltest.SoldOutBusContract(t, func(*testing.T) func() seckill.SoldOutBus {
		bus := seckilltest.NewMemSoldOutBus()
		return func() seckill.SoldOutBus { return bus }
	})
}

func TestMemIDsContract(t *testing.T) {
	t.Parallel()
	seckilltest.IDGeneratorContract(t, func(*testing.T) func() seckill.IDGenerator {
		ids := seckilltest.NewMemIDs(1)
		return func() seckill.IDGenerator { return ids }
	})
}

// The generator the server runs meets the same contract, each node with a part of its
// own.
func TestOrderIDsContract(t *testing.T) {
	t.Parallel()
	seckilltest.IDGeneratorContract(t, func(t *testing.T) func() seckill.IDGenerator {
		var node atomic.Int64
		return func() seckill.IDGenerator {
			g, err := seckill.NewOrderIDs(node.Add(1), nil)
			if err != nil {
				t.Fatal(err)
			}
			return g
		}
	})
}

func TestMemVouchersContract(t *testing.T) {
	t.Parallel()
	seckilltest.VouchersContract(t, func(*testing.T) seckilltest.Store {
		return seckilltest.Store{Vouchers: seckilltest.NewMemVouchers(1), ShopID: 1}
	})
}

func TestMemVoucherCacheContract(t *testing.T) {
	t.Parallel()
	seckilltest.VoucherCacheContract(t, func(*testing.T) seckilltest.VoucherCache { return seckilltest.NewMemVoucherCache() })
}

func TestMemClaimQueueContract(t *testing.T) {
	t.Parallel()
	seckilltest.ClaimPublisherContract(t, func(*testing.T) (seckill.ClaimPublisher, <-chan domain.Claim) {
		q := seckilltest.NewMemClaimQueue()
		return q, q.Received()
	})
}

func TestMemShopOwnersContract(t *testing.T) {
	t.Parallel()
	seckilltest.ShopOwnersContract(t, func(*testing.T) seckilltest.Shops {
		s := seckilltest.NewMemShopOwners()
		s.SetOwner(1, 42)
		s.SetOwner(2, 0)
		return seckilltest.Shops{Owners: s, Owned: 1, Unowned: 2, Owner: 42}
	})
}

// Not parallel: ObserverContract measures allocations.
func TestNopObserverContract(t *testing.T) {
	seckilltest.ObserverContract(t, func(*testing.T) seckill.Observer { return seckill.NopObserver{} })
}
