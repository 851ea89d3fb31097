package redis

import (
	"context"
	_ "embed"
	"fmt"
	"strconv"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/internal/app/seckill"
)

var (
	//go:embed lua/seckill_return.lua
	seckillReturnLua    string
	seckillReturnScript = goredis.NewScript(seckillReturnLua)
)

// UnitReturner is the SaleGate's part that gives the units of canceled and refunded
// orders back to their sale (seckill.SaleStock).
type UnitReturner struct {
	ks *saleKeyspace
}

// ReturnUnits implements seckill.SaleStock with seckill_return.lua, each unit to its
// user's bucket: a per-bucket set of the orders whose unit came back makes a second call
// (or a retried one) return nothing, as a user's bucket never changes. The set lives as
// long as the sale's other keys.
func (u *UnitReturner) ReturnUnits(ctx context.Context, voucherID int64, units []seckill.ReturnedUnit, freeSlot bool) (int, error) {
	if len(units) == 0 {
		return 0, nil
	}
	n, err := u.ks.buckets(ctx, voucherID, 0)
	if err != nil {
		return 0, fmt.Errorf("return %d units to sale %d: %w", len(units), voucherID, err)
	}
	byBucket := make([][]any, n)
	for _, u := range units {
		b := bucketOf(u.UserID, n)
		byBucket[b] = append(byBucket[b], strconv.FormatInt(u.OrderID, 10), strconv.FormatInt(u.UserID, 10))
	}
	total := 0
	for b, args := range byBucket {
		if len(args) == 0 {
			continue
		}
		k := u.ks.bucketKeys(voucherID, b)
		got, err := seckillReturnScript.Run(ctx, u.ks.client, []string{k.stock, k.users, k.returned(), k.gen}, append([]any{flag(freeSlot)}, args...)...).Int()
		if err != nil {
			return total, fmt.Errorf("return %d units to sale %d: %w", len(units), voucherID, err)
		}
		total += got
	}
	return total, nil
}
