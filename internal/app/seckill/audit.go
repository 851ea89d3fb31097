package seckill

import (
	"context"
	"fmt"

	"github.com/dealspot/dealspot/internal/app/orders"
)

// Audit is a sale's bookkeeping in Redis and in the database, for checking the flash
// sale's invariants (no oversell, one order per user, nothing lost, stocks add up).
type Audit struct {
	VoucherID int64
	// RedisStock is the gate's stock; RedisLoaded is false when Redis holds no state.
	RedisStock  int64
	RedisLoaded bool
	// Pending counts reservations whose orders are not written yet.
	Pending int
	// RedisHolders counts the users the gate has marked.
	RedisHolders int
	DBStock      int64
	Orders       orders.OrderCounts
	// Held counts the returned units held for the sale's waitlist: out of both stocks,
	// in no order yet (I4/I5 count them beside the orders, I8).
	Held int64
}

// Audit reads a sale's bookkeeping, the units held for its waitlist included.
func (rec *Reconciler) Audit(ctx context.Context, voucherID int64) (Audit, error) {
	a, err := ReadAudit(ctx, rec.c.d.Stock, rec.c.d.Orders, voucherID)
	if err != nil {
		return a, err
	}
	if w := rec.c.waitlist(); w != nil {
		if a.Held, err = w.HeldUnits(ctx, voucherID); err != nil {
			return Audit{}, fmt.Errorf("audit sale %d: %w", voucherID, err)
		}
	}
	return a, nil
}

// ReadAudit reads a sale's bookkeeping straight from the gate and the order store, for
// auditing stores without a running Service (a load tool against a remote server); it
// leaves Held at 0 (the units held for a waitlist are the waitlist's to count).
func ReadAudit(ctx context.Context, gate SaleStock, store orders.OrderStore, voucherID int64) (Audit, error) {
	a := Audit{VoucherID: voucherID}
	// Reservations first: a claim settles (its order written, or its unit and slot
	// given back) before its reservation goes, so once none is pending every read after
	// this one sees those claims settled. Read the other way round, a claim failing
	// between the two reads left a stock without its returned unit beside no pending
	// claim, and a drained sale looked unbalanced.
	res, err := gate.Reservations(ctx, voucherID)
	if err != nil {
		return Audit{}, err
	}
	a.Pending = len(res)
	if a.RedisStock, a.RedisLoaded, err = gate.Stock(ctx, voucherID); err != nil {
		return Audit{}, err
	}
	holders, err := gate.Holders(ctx, voucherID)
	if err != nil {
		return Audit{}, err
	}
	a.RedisHolders = len(holders)
	if a.DBStock, err = store.SaleStock(ctx, voucherID); err != nil {
		return Audit{}, fmt.Errorf("audit sale %d: %w", voucherID, err)
	}
	if a.Orders, err = store.CountOrders(ctx, voucherID); err != nil {
		return Audit{}, err
	}
	return a, nil
}

// Check tests the invariants against the sale's initial stock once its queue has
// drained (Pending is 0); it returns the violations found.
func (a Audit) Check(initialStock int64) []string {
	var bad []string
	if a.Orders.Created > initialStock {
		bad = append(bad, fmt.Sprintf("I1 oversold: %d orders for a stock of %d", a.Orders.Created, initialStock))
	}
	if a.Orders.LiveUsers != a.Orders.Created {
		bad = append(bad, fmt.Sprintf("I2 duplicates: %d orders held by %d users", a.Orders.Created, a.Orders.LiveUsers))
	}
	if a.Pending != 0 {
		bad = append(bad, fmt.Sprintf("I3 %d claims still pending", a.Pending))
	}
	if a.Held < 0 {
		bad = append(bad, fmt.Sprintf("I8 %d units held for the waitlist", a.Held))
	}
	if a.RedisLoaded && a.RedisStock+a.Orders.Created+a.Held != initialStock {
		bad = append(bad, fmt.Sprintf("I4/I5 redis stock %d + orders holding units %d + units held for the waitlist %d ≠ initial stock %d",
			a.RedisStock, a.Orders.Created, a.Held, initialStock))
	}
	if a.DBStock+a.Orders.Created+a.Held != initialStock {
		bad = append(bad, fmt.Sprintf("I5 database stock %d + orders holding units %d + units held for the waitlist %d ≠ initial stock %d",
			a.DBStock, a.Orders.Created, a.Held, initialStock))
	}
	return bad
}
