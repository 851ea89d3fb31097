package seckill

import (
	"context"
	"fmt"

	"github.com/dealspot/dealspot/internal/domain"
)

// VoucherView is a voucher as clients see it; for a flash sale, Remaining is the stock
// still to give out.
type VoucherView struct {
	domain.Voucher
	Remaining int64
}

// VouchersOfShop lists a shop's vouchers.
type VouchersOfShop struct{ c *core }

// Handle lists a shop's vouchers; flash sales carry their remaining stock, read
// from Redis (the gate's count) or, when Redis does not hold the sale, the database.
func (q *VouchersOfShop) Handle(ctx context.Context, shopID int64) ([]VoucherView, error) {
	if shopID <= 0 {
		return nil, domain.Errorf(domain.CodeBadUserInput, "shopId must be a positive id")
	}
	vs, err := q.c.d.Vouchers.VouchersOfShop(ctx, shopID)
	if err != nil {
		return nil, fmt.Errorf("list vouchers: %w", err)
	}
	out := make([]VoucherView, len(vs))
	for i, v := range vs {
		out[i] = q.c.view(ctx, v)
	}
	return out, nil
}

// OfShops lists the vouchers of several shops, by shop, with one query; shops without
// vouchers are left out.
func (q *VouchersOfShop) OfShops(ctx context.Context, shopIDs []int64) (map[int64][]VoucherView, error) {
	vs, err := q.c.d.Vouchers.VouchersOfShops(ctx, shopIDs)
	if err != nil {
		return nil, fmt.Errorf("list vouchers: %w", err)
	}
	out := make(map[int64][]VoucherView, len(vs))
	for shopID, list := range vs {
		views := make([]VoucherView, len(list))
		for i, v := range list {
			views[i] = q.c.view(ctx, v)
		}
		out[shopID] = views
	}
	return out, nil
}

// view is v as clients see it; a flash sale's remaining stock is read from Redis (the
// gate's count) or, when Redis does not hold the sale, taken from the database's.
func (s *core) view(ctx context.Context, v domain.Voucher) VoucherView {
	out := VoucherView{Voucher: v}
	if v.FlashSale == nil {
		return out
	}
	out.Remaining = int64(v.FlashSale.Stock)
	if n, ok, err := s.d.Stock.Stock(ctx, v.ID); err == nil && ok {
		out.Remaining = n
	}
	return out
}
