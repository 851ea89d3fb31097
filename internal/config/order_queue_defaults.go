package config

import "time"

// Defaults of the flash-sale settings that the order queue and the claim gate share.
// They are defined here only: adapters/queue applies the same values to a queue
// configuration that leaves them unset, and adapters/claimwire to a shard count of zero.
const (
	DefaultSeckillShards       = 16                   // SECKILL_SHARDS
	DefaultOrderBatchSize      = 256                  // ORDER_BATCH_SIZE
	DefaultOrderBatchWait      = 5 * time.Millisecond // ORDER_BATCH_WAIT
	DefaultOrderWorkers        = 2                    // ORDER_WORKERS
	DefaultOrderMaxRetries     = 5                    // ORDER_MAX_RETRIES
	DefaultStreamClaimIdle     = 5 * time.Second      // ORDER_STREAM_CLAIM_IDLE
	DefaultStreamClaimInterval = time.Second          // ORDER_STREAM_CLAIM_INTERVAL
)
