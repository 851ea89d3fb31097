package seckilltest

import (
	"context"
	"fmt"
	"testing"

	"github.com/dealspot/dealspot/internal/app/contracttest"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
)

// VoucherCache is a read-through cache of vouchers as the seckill ports see it: the
// reader of the claim path and the invalidator told after a voucher changed.
type VoucherCache interface {
	seckill.VoucherReader
	seckill.VoucherInvalidator
}

// VoucherCacheContract is what every seckill.VoucherReader with its
// seckill.VoucherInvalidator must do, as their doc comments say (see
// contracttest.ByIDCacheContract); a voucher comes back whole, with its flash sale.
// newCache returns a cache; caches of one test may share their server.
func VoucherCacheContract(t *testing.T, newCache func(t *testing.T) VoucherCache) {
	t.Helper()
	contracttest.ByIDCacheContract(t, func(t *testing.T) contracttest.ByIDCache[domain.Voucher] {
		c := newCache(t)
		return contracttest.ByIDCache[domain.Voucher]{Get: func(ctx context.Context, id int64, load contracttest.Load[domain.Voucher]) (domain.Voucher, bool, error) {
			return c.Get(ctx, id, load)
		}, Changed: c.VoucherChanged}
	}, func(id int64, label string) domain.Voucher {
		return domain.Voucher{ID: id, ShopID: 7, Title: label, Kind: domain.VoucherFlashSale, Status: domain.VoucherOnSale,
			FlashSale: &domain.FlashSale{VoucherID: id, Stock: 3, Buckets: 1}}
	}, func(v domain.Voucher) string {
		if v.ShopID != 7 || v.FlashSale == nil || v.FlashSale.VoucherID != v.ID || v.FlashSale.Stock != 3 {
			return fmt.Sprintf("%q, not whole: %+v", v.Title, v)
		}
		return v.Title
	})
}

// MemVoucherCache is an in-memory seckill.VoucherReader and seckill.VoucherInvalidator:
// a map of answers, "not found" included, until the voucher changes.
type MemVoucherCache struct {
	*contracttest.MemByIDCache[domain.Voucher]
}

var _ VoucherCache = MemVoucherCache{}

// NewMemVoucherCache returns an empty cache.
func NewMemVoucherCache() MemVoucherCache {
	return MemVoucherCache{contracttest.NewMemByIDCache(cloneVoucher)}
}

// VoucherChanged implements seckill.VoucherInvalidator.
func (c MemVoucherCache) VoucherChanged(_ context.Context, id int64) error {
	c.Forget(id)
	return nil
}
