package seckill_test

import (
	"slices"
	"testing"

	"github.com/dealspot/dealspot/internal/app/seckill"
)

// The memory of accepted claims stays within its bound by forgetting the oldest claims
// first (the likeliest to be written), forgets written claims, and remembers nothing
// when turned off.
func TestAcceptedClaimsStayWithinTheirBound(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name         string
		max          int
		ids, written []int64
		kept         []int64
		evicted      int
	}{
		{"within the bound", 5, []int64{1, 2, 3}, nil, []int64{1, 2, 3}, 0},
		{"oldest forgotten first", 3, []int64{1, 2, 3, 4, 5}, nil, []int64{3, 4, 5}, 2},
		{"written forgotten", 5, []int64{1, 2, 3}, []int64{2}, []int64{1, 3}, 0},
		{"written do not count against the bound", 2, []int64{1, 2, 3}, []int64{3}, []int64{2}, 1},
		{"off", 0, []int64{1, 2}, nil, nil, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			kept, evicted := seckill.RememberAccepted(tc.max, tc.ids, tc.written)
			if !slices.Equal(kept, tc.kept) || evicted != tc.evicted {
				t.Errorf("kept %v, evicted %d; want %v, %d", kept, evicted, tc.kept, tc.evicted)
			}
		})
	}
}
