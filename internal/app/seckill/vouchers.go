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
	return q.c.views(ctx, vs), nil
}

// OfShops lists the vouchers of several shops, by shop, with one query, and their flash
// sales' remaining stock with one read of the gate; shops without vouchers are left out.
func (q *VouchersOfShop) OfShops(ctx context.Context, shopIDs []int64) (map[int64][]VoucherView, error) {
	vs, err := q.c.d.Vouchers.VouchersOfShops(ctx, shopIDs)
	if err != nil {
		return nil, fmt.Errorf("list vouchers: %w", err)
	}
	var all []domain.Voucher
	for _, id := range shopIDs {
		all = append(all, vs[id]...)
	}
	views := q.c.views(ctx, all)
	out := make(map[int64][]VoucherView, len(vs))
	for _, v := range views {
		out[v.ShopID] = append(out[v.ShopID], v)
	}
	return out, nil
}

// views is view of every voucher of vs, in order, the flash sales' stock read from Redis
// in one round trip (the database's for a sale Redis does not hold, or when Redis cannot
// answer).
func (s *core) views(ctx context.Context, vs []domain.Voucher) []VoucherView {
	out := make([]VoucherView, len(vs))
	var sales []SaleRef
	for i, v := range vs {
		out[i] = VoucherView{Voucher: v}
		if v.FlashSale != nil {
			out[i].Remaining = int64(v.FlashSale.Stock)
			sales = append(sales, SaleRef{VoucherID: v.ID, Buckets: v.FlashSale.Buckets})
		}
	}
	if len(sales) == 0 {
		return out
	}
	live, err := s.d.Stock.Stocks(ctx, sales)
	if err != nil {
		return out
	}
	for i, v := range out {
		if n, ok := live[v.ID]; ok && v.FlashSale != nil {
			out[i].Remaining = n
		}
	}
	return out
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
