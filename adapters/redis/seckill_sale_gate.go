package redis

import (
	"context"
	"errors"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/adapters/claimwire"
	"github.com/dealspot/dealspot/internal/app/seckill"
)

// GateConfig shapes the flash-sale gate.
type GateConfig struct {
	// Shards is the number of hash-tag shards sales are spread over ({s0} … {sN-1}).
	Shards int
	// ClaimStream, when set, names the stream Reserve XADDs a voucher's claims to; it
	// must carry the voucher's shard tag (see claimwire.StreamForVoucher). Bucket b > 0
	// of a sale split into buckets lives on a shard k of its own, and its claims go to
	// ClaimStream(k) (Shard(k) = k). Nil: Reserve enqueues nothing.
	ClaimStream func(voucherID int64) string
	// Coalesce batches concurrent Reserve calls: a batch's claims on one sale run as one
	// script (seckill_reserve.lua), all of a batch's sales in one pipeline.
	Coalesce Coalescing
	// BucketsOf returns a sale's bucket count (domain.FlashSale.Buckets) when a call does
	// not carry it and the gate has not seen the sale; nil: every such sale has one.
	BucketsOf func(ctx context.Context, voucherID int64) (int, error)
}

// SaleGate is a flash sale's stock in Redis (seckill.SaleStock), one part per job, all
// on one keyspace (one Lua script per decision, every key of a sale under its shard's
// hash tag so the scripts run unchanged on Redis Cluster). The parts share what they
// learn of each sale's buckets; their methods, promoted, are the port's intents.
type SaleGate struct {
	// Gate decides claims: reserve, drop, settle, and the reservations still waiting.
	*Gate
	// SaleLoader writes sales into Redis and finishes the transfers between buckets.
	*SaleLoader
	// GateInspector reads a sale's state (its live numbers too) and repairs it.
	*GateInspector
	// UnitReturner gives the units of canceled and refunded orders back.
	*UnitReturner
	// SlotKeeper marks users as holding a sale without a unit (the waitlist's).
	*SlotKeeper
}

var _ seckill.SaleStock = SaleGate{}

// NewSaleGate returns the sale stock on client, its parts on one keyspace.
func NewSaleGate(client goredis.UniversalClient, cfg GateConfig) (SaleGate, error) {
	if cfg.Shards < 1 {
		return SaleGate{}, errors.New("seckill gate: shards must be at least 1")
	}
	ks := &saleKeyspace{client: client, cfg: cfg, slots: make([]int, cfg.Shards)}
	for k := range ks.slots {
		ks.slots[k] = int(KeySlot(claimwire.TagOfShard(k)))
	}
	g := &Gate{ks: ks}
	if cfg.Coalesce.On() {
		g.batcher = newReserveBatcher(g, cfg.Coalesce)
	}
	return SaleGate{Gate: g, SaleLoader: &SaleLoader{ks: ks}, GateInspector: &GateInspector{ks: ks}, UnitReturner: &UnitReturner{ks: ks},
		SlotKeeper: &SlotKeeper{ks: ks}}, nil
}
