package redis

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strconv"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/internal/app/social/visitors"
)

var (
	//go:embed lua/uv_count.lua
	uvCountLua    string
	uvCountScript = goredis.NewScript(uvCountLua)
)

// Visitors counts distinct visitors per day in HyperLogLogs: uv:{site}:<yyyyMMdd> for the
// whole site and uv:{shop:<shopId>}:<yyyyMMdd> per shop. One hash tag per site or shop
// keeps the days that are merged together in one slot.
type Visitors struct {
	client    goredis.UniversalClient
	retention time.Duration
}

var _ visitors.Visitors = (*Visitors)(nil)

// NewVisitors returns the visitor counts on client; each day's count is kept for
// retention after its last visit.
func NewVisitors(client goredis.UniversalClient, retention time.Duration) (*Visitors, error) {
	if retention <= 0 {
		return nil, errors.New("visitors: retention must be positive")
	}
	return &Visitors{client: client, retention: retention}, nil
}

// visitorTag is the hash tag of the site's or a shop's counts.
func visitorTag(shopID int64) string {
	if shopID > 0 {
		return "{shop:" + strconv.FormatInt(shopID, 10) + "}"
	}
	return "{site}"
}

func visitorKey(shopID int64, day time.Time) string {
	return "uv:" + visitorTag(shopID) + ":" + day.Format("20060102")
}

// recordBatch is how many visitors one PFADD carries.
const recordBatch = 1000

// Record implements visitors.Visitors: PFADD in batches, then the day's expiry, in one
// pipeline.
func (v *Visitors) Record(ctx context.Context, day time.Time, shopID int64, visitors []string) error {
	if len(visitors) == 0 {
		return nil
	}
	key := visitorKey(shopID, day)
	_, err := v.client.Pipelined(ctx, func(pipe goredis.Pipeliner) error {
		for start := 0; start < len(visitors); start += recordBatch {
			part := visitors[start:min(start+recordBatch, len(visitors))]
			els := make([]any, len(part))
			for i, s := range part {
				els[i] = s
			}
			pipe.PFAdd(ctx, key, els...)
		}
		pipe.Expire(ctx, key, v.retention)
		return nil
	})
	if err != nil {
		return fmt.Errorf("record %d visitors: %w", len(visitors), err)
	}
	return nil
}

// Count implements visitors.Visitors: PFCOUNT for one day; for several, the union through a
// scratch key in one script.
func (v *Visitors) Count(ctx context.Context, days []time.Time, shopID int64) (int64, error) {
	switch len(days) {
	case 0:
		return 0, nil
	case 1:
		n, err := v.client.PFCount(ctx, visitorKey(shopID, days[0])).Result()
		if err != nil {
			return 0, fmt.Errorf("count visitors: %w", err)
		}
		return n, nil
	}
	keys := make([]string, 0, len(days)+1)
	keys = append(keys, "uv:"+visitorTag(shopID)+":merge:"+eventID())
	for _, d := range days {
		keys = append(keys, visitorKey(shopID, d))
	}
	n, err := uvCountScript.Run(ctx, v.client, keys).Int64()
	if err != nil {
		return 0, fmt.Errorf("count visitors over %d days: %w", len(days), err)
	}
	return n, nil
}
