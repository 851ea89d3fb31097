package redis

import (
	"context"

	"github.com/dealspot/dealspot/internal/app/social/follows"
)

// TakeOver runs one take-over pass of f, as Consume does every ClaimIdle/3: the jobs
// other consumers left unacknowledged for ClaimIdle are run with handle, or dropped
// when they were delivered MaxDeliveries times.
func TakeOver(ctx context.Context, f *FanoutStream, handle func(ctx context.Context, job follows.FanoutJob) error) {
	f.takeOver(ctx, handle)
}
