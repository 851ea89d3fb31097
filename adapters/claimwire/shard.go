package claimwire

import "strconv"

// streamPrefix starts the name of every shard's order stream.
const streamPrefix = "orders:"

// Shard returns the shard of a voucher: voucherID mod shards, never negative. shards is
// the setting the gate and the queue were given (SECKILL_SHARDS), which both refuse
// below 1; Shard panics on a count below 1.
func Shard(voucherID int64, shards int) int {
	if shards < 1 {
		panic("claimwire: shard count below 1")
	}
	k := voucherID % int64(shards)
	if k < 0 {
		k += int64(shards)
	}
	return int(k)
}

// ShardTag returns the Redis hash tag shared by every key of a voucher's sale and by
// its shard's order stream: "{s<k>}" with k = Shard(voucherID, shards).
func ShardTag(voucherID int64, shards int) string {
	return TagOfShard(Shard(voucherID, shards))
}

// TagOfShard returns the hash tag of shard k: "{s<k>}".
func TagOfShard(k int) string { return "{s" + strconv.Itoa(k) + "}" }

// ShardStream returns the order stream of shard k: "orders:{s<k>}".
func ShardStream(k int) string { return streamPrefix + TagOfShard(k) }

// StreamForVoucher returns the order stream of a voucher's shard: "orders:{s<k>}".
func StreamForVoucher(voucherID int64, shards int) string {
	return ShardStream(Shard(voucherID, shards))
}
