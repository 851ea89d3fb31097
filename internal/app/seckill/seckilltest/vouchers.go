package seckilltest

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
)

// MemVouchers is an in-memory seckill.Vouchers over a fixed set of shops.
type MemVouchers struct {
	mu       sync.Mutex
	shops    map[int64]bool
	vouchers map[int64]domain.Voucher
	lastID   int64
}

var _ seckill.Vouchers = (*MemVouchers)(nil)

// NewMemVouchers returns a store that knows the shops shopIDs and holds no voucher.
func NewMemVouchers(shopIDs ...int64) *MemVouchers {
	s := &MemVouchers{shops: map[int64]bool{}, vouchers: map[int64]domain.Voucher{}}
	for _, id := range shopIDs {
		s.shops[id] = true
	}
	return s
}

// cloneVoucher copies v so that no caller shares its flash sale with the store.
func cloneVoucher(v domain.Voucher) domain.Voucher {
	if v.FlashSale != nil {
		fs := *v.FlashSale
		v.FlashSale = &fs
	}
	return v
}

// CreateVoucher implements seckill.Vouchers.
func (s *MemVouchers) CreateVoucher(_ context.Context, v domain.Voucher) (domain.Voucher, error) {
	if err := v.Normalize(); err != nil {
		return domain.Voucher{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.shops[v.ShopID] {
		return domain.Voucher{}, domain.Errorf(domain.CodeBadUserInput, "unknown shop")
	}
	s.lastID++
	v = cloneVoucher(v)
	v.ID = s.lastID
	if v.FlashSale != nil {
		v.FlashSale.VoucherID = v.ID
		v.FlashSale.Buckets = max(1, v.FlashSale.Buckets)
	}
	s.vouchers[v.ID] = v
	return cloneVoucher(v), nil
}

// Voucher implements seckill.Vouchers.
func (s *MemVouchers) Voucher(_ context.Context, id int64) (domain.Voucher, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.vouchers[id]
	if !ok {
		return domain.Voucher{}, fmt.Errorf("voucher %d: %w", id, domain.ErrNotFound)
	}
	return cloneVoucher(v), nil
}

// list returns the vouchers keep accepts, by id.
func (s *MemVouchers) list(keep func(domain.Voucher) bool) []domain.Voucher {
	var out []domain.Voucher
	for _, id := range slices.Sorted(maps.Keys(s.vouchers)) {
		if v := s.vouchers[id]; keep(v) {
			out = append(out, cloneVoucher(v))
		}
	}
	return out
}

// VouchersOfShop implements seckill.Vouchers.
func (s *MemVouchers) VouchersOfShop(_ context.Context, shopID int64) ([]domain.Voucher, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.list(func(v domain.Voucher) bool { return v.ShopID == shopID }), nil
}

// VouchersOfShops implements seckill.Vouchers.
func (s *MemVouchers) VouchersOfShops(_ context.Context, shopIDs []int64) (map[int64][]domain.Voucher, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[int64][]domain.Voucher{}
	for _, v := range s.list(func(v domain.Voucher) bool { return slices.Contains(shopIDs, v.ShopID) }) {
		out[v.ShopID] = append(out[v.ShopID], v)
	}
	return out, nil
}

// FlashSalesEndingAfter implements seckill.Vouchers.
func (s *MemVouchers) FlashSalesEndingAfter(_ context.Context, t time.Time) ([]domain.Voucher, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.list(func(v domain.Voucher) bool { return v.FlashSale != nil && v.FlashSale.EndTime.After(t) }), nil
}

// UpdateFlashSale implements seckill.Vouchers: update sees a copy, saved only when it
// succeeds.
func (s *MemVouchers) UpdateFlashSale(_ context.Context, voucherID int64, update func(v domain.Voucher, fs *domain.FlashSale) error) (domain.Voucher, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.vouchers[voucherID]
	if !ok || v.FlashSale == nil {
		return domain.Voucher{}, fmt.Errorf("flash sale %d: %w", voucherID, domain.ErrNotFound)
	}
	fs := *v.FlashSale
	if err := update(cloneVoucher(v), &fs); err != nil {
		return domain.Voucher{}, err
	}
	v.FlashSale = &domain.FlashSale{VoucherID: voucherID, Stock: fs.Stock, BeginTime: fs.BeginTime, EndTime: fs.EndTime,
		Buckets: v.FlashSale.Buckets}
	s.vouchers[voucherID] = v
	return cloneVoucher(v), nil
}
