package config

import "time"

// Defaults of the flash-sale settings that the order queue and the claim gate share.
// They are defined here only: internal/service passes the settings to the adapters
// (queue.Config, redis.GateConfig), which hold no copy and refuse them unset.
const (
	DefaultSeckillShards       = 16                    // SECKILL_SHARDS
	DefaultOrderBatchSize      = 1000                  // ORDER_BATCH_SIZE
	DefaultOrderBatchWait      = 25 * time.Millisecond // ORDER_BATCH_WAIT
	DefaultOrderWorkers        = 2                     // ORDER_WORKERS
	DefaultOrderMaxRetries     = 5                     // ORDER_MAX_RETRIES
	DefaultOrderWriteTimeout   = 30 * time.Second      // ORDER_WRITE_TIMEOUT
	DefaultStreamClaimIdle     = 5 * time.Second       // ORDER_STREAM_CLAIM_IDLE
	DefaultStreamClaimInterval = time.Second           // ORDER_STREAM_CLAIM_INTERVAL
)
