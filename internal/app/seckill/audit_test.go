package seckill_test

import (
	"context"
	"testing"

	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/app/seckill"
)

// failingMidAudit is a sale of 5 units: user 1 holds a written order, and user 2's claim
// is pending until the audit's first read of the gate, when it fails and gives its unit
// and slot back in one step, as the gate's drop does.
type failingMidAudit struct {
	seckill.SaleStock
	reads  int
	failed bool
}

func (g *failingMidAudit) read() {
	g.reads++
	if g.reads > 1 {
		g.failed = true
	}
}

func (g *failingMidAudit) Stock(context.Context, int64) (int64, bool, error) {
	g.read()
	if g.failed {
		return 4, true, nil
	}
	return 3, true, nil
}

func (g *failingMidAudit) Reservations(context.Context, int64) ([]seckill.Reservation, error) {
	g.read()
	if g.failed {
		return nil, nil
	}
	return []seckill.Reservation{{OrderID: 2, UserID: 2, VoucherID: 1}}, nil
}

func (g *failingMidAudit) Holders(context.Context, int64) ([]int64, error) {
	g.read()
	if g.failed {
		return []int64{1}, nil
	}
	return []int64{1, 2}, nil
}

type oneOrder struct{ orders.OrderStore }

func (oneOrder) SaleStock(context.Context, int64) (int64, error) { return 4, nil }
func (oneOrder) CountOrders(context.Context, int64) (orders.OrderCounts, error) {
	return orders.OrderCounts{Created: 1, LiveUsers: 1, Failed: 1}, nil
}

// An audit that finds no claim pending is balanced, also when a claim fails while the
// audit reads: the claims it saw settled are settled in every read after.
func TestAuditWithNothingPendingSeesSettledClaims(t *testing.T) {
	t.Parallel()
	a, err := seckill.ReadAudit(context.Background(), &failingMidAudit{}, oneOrder{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if a.Pending != 0 {
		return // the audit saw the claim pending: a caller reads again
	}
	if bad := a.Check(5); len(bad) > 0 {
		t.Errorf("audit %+v with nothing pending: %v", a, bad)
	}
}
