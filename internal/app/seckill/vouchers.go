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

// view is v as clients see it; a flash sale's remaining stock is read from Redis (the
// gate's count) or, when Redis does not hold the sale, taken from the database's.
func (s *core) view(ctx context.Context, v domain.Voucher) VoucherView {
	out := VoucherView{Voucher: v}
	if v.FlashSale == nil {
		return out
	}
	out.Remaining = int64(v.FlashSale.Stock)
	if n, ok, err := s.d.Gate.Stock(ctx, v.ID); err == nil && ok {
		out.Remaining = n
	}
	return out
}
