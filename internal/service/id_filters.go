package service

import (
	"context"
	"log/slog"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/app/shop"
	"github.com/dealspot/dealspot/internal/config"
	"github.com/dealspot/dealspot/internal/idfilter"
	cache "github.com/dealspot/dealspot/internal/readcache"
)

// idFilters are this node's Bloom filters of the shop and voucher ids that exist, asked
// by the shop and voucher read caches before anything else (see package idfilter). A
// nil *idFilters (BLOOM_FILTER off) lets every id through.
type idFilters struct {
	shops, vouchers *idfilter.Filter
}

func newIDFilters(cfg config.Cache, store *entstore.Store, log *slog.Logger) *idFilters {
	if !cfg.BloomFilter {
		return nil
	}
	c := idfilter.Config{FalsePositiveRate: cfg.BloomFalsePositives, RebuildInterval: cfg.BloomRebuild}
	return &idFilters{
		shops:    idfilter.New("shop", c, store.Shops().ShopIDs, log),
		vouchers: idfilter.New("voucher", c, store.Vouchers().VoucherIDs, log),
	}
}

// shopValid is the shop cache's id check: a positive id the filter does not rule out.
func (f *idFilters) shopValid(id string) bool {
	return shop.ValidShopID(id) && (f == nil || f.shops.MayExistString(id))
}

// voucherValid is the voucher cache's id check.
func (f *idFilters) voucherValid(id string) bool {
	return f == nil || f.vouchers.MayExistString(id)
}

// addShop and addVoucher record a created id; they run before the change is announced.
func (f *idFilters) addShop(id int64) {
	if f != nil {
		f.shops.Add(id)
	}
}

func (f *idFilters) addVoucher(id int64) {
	if f != nil {
		f.vouchers.Add(id)
	}
}

// start builds both filters from the database, then keeps them current from the read
// caches' invalidation broadcast (ids other nodes create) and rebuilds them
// periodically, until stop.
func (f *idFilters) start(ctx context.Context, inv cache.Invalidations, log *slog.Logger) (stop func() error, err error) {
	if f == nil {
		return func() error { return nil }, nil
	}
	stopSub, err := inv.Subscribe(ctx, func(key string) {
		f.shops.Announced(key)
		f.vouchers.Announced(key)
	})
	if err != nil {
		return nil, err
	}
	// Built after subscribing: an id announced meanwhile is in the database read or
	// added by its announcement.
	shops, err := f.shops.Build(ctx)
	if err != nil {
		stopSub()
		return nil, err
	}
	vouchers, err := f.vouchers.Build(ctx)
	if err != nil {
		stopSub()
		return nil, err
	}
	log.Info("id filters built", slog.Int("shops", shops), slog.Int("vouchers", vouchers))
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{}, 2)
	for _, filter := range []*idfilter.Filter{f.shops, f.vouchers} {
		go func() { filter.Run(runCtx); done <- struct{}{} }()
	}
	return func() error {
		stopSub()
		cancel()
		<-done
		<-done
		return nil
	}, nil
}
