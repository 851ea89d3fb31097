package seckill

import (
	"slices"
	"testing"

	"github.com/dealspot/dealspot/internal/domain"
)

func TestComputeDrift(t *testing.T) {
	res := func(order, user int64) Reservation { return Reservation{OrderID: order, UserID: user, VoucherID: 9} }
	// Redis: stock 5, reservations of users 1 (order written), 2 (order FAILED), 3
	// (waiting); holders 1, 2, 3, 99 (a stranger). Database: users 1 and 4 hold orders.
	snap := GateSnapshot{Loaded: true, Version: 7, Stock: 5,
		Reservations: []Reservation{res(11, 1), res(12, 2), res(13, 3)}, Holders: []int64{1, 2, 3, 99}}
	written := map[int64]domain.VoucherOrder{
		11: {ID: 11, UserID: 1, VoucherID: 9, Status: domain.OrderCreated},
		12: {ID: 12, UserID: 2, VoucherID: 9, Status: domain.OrderFailed},
	}
	for _, tc := range []struct {
		name          string
		dbStock       int64
		slack         int64
		wantDelta     int64
		wantUnchanged bool
	}{
		{name: "in step", dbStock: 6, wantDelta: 0},     // 6 − 1 waiting = 5
		{name: "redis short", dbStock: 9, wantDelta: 3}, // should be 8
		{name: "redis short, orders written meanwhile", dbStock: 9, slack: 4, wantDelta: 3},
		{name: "redis over", dbStock: 4, wantDelta: -2}, // should be 3
		{name: "redis over within the slack", dbStock: 4, slack: 2, wantDelta: 0},
		{name: "redis over beyond the slack", dbStock: 4, slack: 1, wantDelta: -1},
		{name: "over-reserved", dbStock: 0, wantDelta: -5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := computeDrift(snap, tc.dbStock, tc.slack, []int64{1, 4}, written)
			if d.StockDelta != tc.wantDelta || d.Version != 7 {
				t.Errorf("delta %d (version %d), want %d", d.StockDelta, d.Version, tc.wantDelta)
			}
			if !slices.Equal(d.Remove, []int64{11, 12}) || d.settled != 1 || d.released != 1 {
				t.Errorf("remove %v (settled %d, released %d), want [11 12]", d.Remove, d.settled, d.released)
			}
			slices.Sort(d.RemoveHolders)
			if !slices.Equal(d.AddHolders, []int64{4}) || !slices.Equal(d.RemoveHolders, []int64{2, 99}) {
				t.Errorf("holders +%v −%v, want +[4] −[2 99]", d.AddHolders, d.RemoveHolders)
			}
		})
	}
	// Without look-ups every reservation is taken as waiting: nothing is removed.
	if d := computeDrift(snap, 8, 0, []int64{1, 2, 3, 99}, nil); !d.none() {
		t.Errorf("a sale in step with every reservation waiting: %+v", d)
	}
}
