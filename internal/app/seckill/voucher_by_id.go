package seckill

import (
	"context"
	"fmt"

	"github.com/dealspot/dealspot/internal/domain"
)

// ByID returns one voucher as clients see it (through the voucher cache, with a flash
// sale's remaining stock); found is false for an unknown id.
func (q *VouchersOfShop) ByID(ctx context.Context, id int64) (VoucherView, bool, error) {
	if id <= 0 {
		return VoucherView{}, false, nil
	}
	v, found, err := q.c.voucher(ctx, id)
	if err != nil {
		return VoucherView{}, false, fmt.Errorf("read voucher %d: %w", id, err)
	}
	if !found {
		return VoucherView{}, false, nil
	}
	return q.c.view(ctx, v), true, nil
}

// ByIDs returns the vouchers with ids as clients see them, unknown ones left out: each
// through the voucher cache, the flash sales' remaining stock read with one round trip.
func (q *VouchersOfShop) ByIDs(ctx context.Context, ids []int64) (map[int64]VoucherView, error) {
	vs := make([]domain.Voucher, 0, len(ids))
	for _, id := range ids {
		if id <= 0 {
			continue
		}
		v, found, err := q.c.voucher(ctx, id)
		if err != nil {
			return nil, fmt.Errorf("read voucher %d: %w", id, err)
		}
		if found {
			vs = append(vs, v)
		}
	}
	out := make(map[int64]VoucherView, len(vs))
	for _, v := range q.c.views(ctx, vs) {
		out[v.ID] = v
	}
	return out, nil
}
