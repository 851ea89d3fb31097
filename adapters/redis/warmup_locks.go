package redis

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/internal/app/seckill"
)

// WarmupLocks is seckill.WarmupLocks on Redis: seckill:warmup:<voucher id> (SET NX PX)
// names the node that warms a sale up. It is never released: it expires, by then the
// sale is loaded, and a later warm-up of the same sale (Redis wiped) takes it again.
type WarmupLocks struct {
	client goredis.UniversalClient
	owner  string
}

var _ seckill.WarmupLocks = (*WarmupLocks)(nil)

// NewWarmupLocks returns the locks on client, taken in the name of this node (a random
// token, which shows in Redis who took one).
func NewWarmupLocks(client goredis.UniversalClient) *WarmupLocks {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return &WarmupLocks{client: client, owner: hex.EncodeToString(b)}
}

// TryWarmup implements seckill.WarmupLocks.
func (l *WarmupLocks) TryWarmup(ctx context.Context, voucherID int64, ttl time.Duration) (bool, error) {
	ok, err := l.client.SetArgs(ctx, "seckill:warmup:"+strconv.FormatInt(voucherID, 10), l.owner,
		goredis.SetArgs{Mode: "NX", TTL: ttl}).Result()
	if errors.Is(err, goredis.Nil) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("take the warm-up of sale %d: %w", voucherID, err)
	}
	return ok == "OK", nil
}
