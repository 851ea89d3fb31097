package redis

import (
	"context"
	_ "embed"
	"fmt"
	"strconv"

	goredis "github.com/redis/go-redis/v9"
)

var (
	//go:embed lua/seckill_slot.lua
	seckillSlotLua    string
	seckillSlotScript = goredis.NewScript(seckillSlotLua)
)

// SlotKeeper is the SaleGate's part that marks users as holding a sale, and frees them,
// without moving a unit (seckill.SaleStock): a unit held for a user outside the stock
// (the waitlist's) takes the user's slot when the user accepts it.
type SlotKeeper struct {
	ks *saleKeyspace
}

// TakeSlot implements seckill.SaleStock with seckill_slot.lua, in the user's bucket (the
// one its claims go to).
func (s *SlotKeeper) TakeSlot(ctx context.Context, voucherID, userID int64) (bool, bool, error) {
	n, err := s.ks.buckets(ctx, voucherID, 0)
	if err != nil {
		return false, false, fmt.Errorf("take the slot of user %d in sale %d: %w", userID, voucherID, err)
	}
	k := s.ks.bucketKeys(voucherID, bucketOf(userID, n))
	got, err := seckillSlotScript.Run(ctx, s.ks.client, []string{k.stock, k.users, k.gen}, "take", strconv.FormatInt(userID, 10)).Int()
	if err != nil {
		return false, false, fmt.Errorf("take the slot of user %d in sale %d: %w", userID, voucherID, err)
	}
	return got == 1, got >= 0, nil
}

// FreeSlots implements seckill.SaleStock with seckill_slot.lua, each user in its bucket.
func (s *SlotKeeper) FreeSlots(ctx context.Context, voucherID int64, userIDs []int64) error {
	if len(userIDs) == 0 {
		return nil
	}
	n, err := s.ks.buckets(ctx, voucherID, 0)
	if err != nil {
		return fmt.Errorf("free %d slots of sale %d: %w", len(userIDs), voucherID, err)
	}
	byBucket := make([][]any, n)
	for _, u := range userIDs {
		b := bucketOf(u, n)
		byBucket[b] = append(byBucket[b], strconv.FormatInt(u, 10))
	}
	for b, users := range byBucket {
		if len(users) == 0 {
			continue
		}
		k := s.ks.bucketKeys(voucherID, b)
		if err := seckillSlotScript.Run(ctx, s.ks.client, []string{k.stock, k.users, k.gen}, append([]any{"free"}, users...)...).Err(); err != nil {
			return fmt.Errorf("free %d slots of sale %d: %w", len(userIDs), voucherID, err)
		}
	}
	return nil
}
