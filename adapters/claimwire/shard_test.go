package claimwire_test

import (
	"testing"

	"github.com/dealspot/dealspot/adapters/claimwire"
)

func TestShardNames(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		voucher int64
		shards  int
		tag     string
	}{
		{3, 16, "{s3}"},
		{35, 16, "{s3}"},
		{16, 16, "{s0}"},
		{7, 4, "{s3}"},
		{-5, 4, "{s3}"}, // never negative
	} {
		if got := claimwire.ShardTag(tc.voucher, tc.shards); got != tc.tag {
			t.Errorf("ShardTag(%d, %d) = %s, want %s", tc.voucher, tc.shards, got, tc.tag)
		}
		if got, want := claimwire.StreamForVoucher(tc.voucher, tc.shards), "orders:"+tc.tag; got != want {
			t.Errorf("StreamForVoucher(%d, %d) = %s, want %s", tc.voucher, tc.shards, got, want)
		}
	}
}

// No shard count stands in for a missing one: the count is a setting the gate and the
// queue were given, and a count below 1 is a bug of the caller.
func TestShardRefusesACountBelowOne(t *testing.T) {
	t.Parallel()
	for _, shards := range []int{0, -16} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Shard(5, %d) did not panic", shards)
				}
			}()
			claimwire.Shard(5, shards)
		}()
	}
}
