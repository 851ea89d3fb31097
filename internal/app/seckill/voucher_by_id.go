package seckill

import (
	"context"
	"fmt"
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
