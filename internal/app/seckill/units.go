package seckill

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/domain"
)

// unitsBack is what goes back to a sale: either a reservation whose claim will never be
// an order (Drop, of user User, giving back what Release says), or the units of written
// orders that were canceled or refunded (Orders, FreeSlot letting their users claim
// again).
type unitsBack struct {
	Drop     int64
	User     int64
	Release  Release
	Orders   []ReturnedUnit
	FreeSlot bool
}

// giveBack is the one place units go back to a sale. The sale's waitlist, when it has
// one, is offered every unit first (it holds them for the people in line, taking them
// off the database stock); the gate gets the others and, when any unit went back,
// the sale opens again on this node's sold-out board and on every node. It returns how
// many units went back to the stock: for a drop 1, or 0 when the reservation was gone
// already (settled or dropped), gave back no unit, or its unit went to the waitlist.
func (s *core) giveBack(ctx context.Context, voucherID int64, b unitsBack) (int, error) {
	var n int
	var err error
	if b.Orders != nil {
		n, err = s.returnOrders(ctx, voucherID, b.Orders, b.FreeSlot)
	} else {
		n, err = s.drop(ctx, voucherID, b)
	}
	if err != nil {
		return 0, err
	}
	if n > 0 {
		s.stockBack(ctx, voucherID)
	}
	return n, nil
}

// returnOrders gives the units of released orders to the waitlist, then the rest to the
// gate; the slots of the users of held units are freed as the gate frees the others'.
func (s *core) returnOrders(ctx context.Context, voucherID int64, units []ReturnedUnit, freeSlot bool) (int, error) {
	held, err := s.hold(ctx, voucherID, units)
	if err != nil {
		return 0, err
	}
	rest := units
	if len(held) > 0 {
		rest = make([]ReturnedUnit, 0, len(units))
		var users []int64
		for _, u := range units {
			if held[u.OrderID] {
				users = append(users, u.UserID)
			} else {
				rest = append(rest, u)
			}
		}
		if freeSlot {
			if err := s.d.Stock.FreeSlots(ctx, voucherID, users); err != nil {
				return 0, err
			}
		}
	}
	if len(rest) == 0 {
		return 0, nil
	}
	return s.d.Stock.ReturnUnits(ctx, voucherID, rest, freeSlot)
}

// drop drops a reservation and, when it held a unit, gives it back to the gate in the
// same step. A claim that never became an order returns its unit to the stock, not to
// the waitlist: the gate's drop frees the unit and the reservation atomically, and a
// unit taken back out of the gate for the line could meanwhile be claimed (its order
// then written beside the held one). Units of written orders go to the line.
func (s *core) drop(ctx context.Context, voucherID int64, b unitsBack) (int, error) {
	dropped, err := s.d.Stock.Drop(ctx, voucherID, b.Drop, b.Release)
	if err != nil || !dropped || !b.Release.Stock {
		return 0, err
	}
	return 1, nil
}

// hold offers units to the sale's waitlist (none held without one).
func (s *core) hold(ctx context.Context, voucherID int64, units []ReturnedUnit) (map[int64]bool, error) {
	w := s.waitlist()
	if w == nil {
		return nil, nil
	}
	held, err := w.Hold(ctx, voucherID, units)
	if err != nil {
		return nil, fmt.Errorf("offer %d returned units of sale %d to its waitlist: %w", len(units), voucherID, err)
	}
	return held, nil
}

// stockBack opens a sale again on this node's sold-out board and tells every node it has
// stock again.
func (s *core) stockBack(ctx context.Context, voucherID int64) {
	s.soldOut.stockBack(voucherID)
	if err := s.d.SoldOut.Publish(context.WithoutCancel(ctx), voucherID, false); err != nil {
		s.log.Warn("cannot announce returned stock", slog.Int64("voucher_id", voucherID), slog.Any("error", err))
	}
}

// SaleUnits is the sale's stock as the order lifecycle sees it (orders.Sales): units of
// canceled and refunded orders come back through it, and a sale's live numbers are read
// through it.
type SaleUnits struct{ c *core }

var _ orders.Sales = (*SaleUnits)(nil)

// ReturnUnits implements orders.Sales: the flash-sale orders of released go back to the
// sale through the gate, at most once per order id, and the sale opens again if any did.
func (u *SaleUnits) ReturnUnits(ctx context.Context, voucherID int64, released []domain.VoucherOrder, freeSlot bool) (int, error) {
	units := make([]ReturnedUnit, 0, len(released))
	for _, o := range released {
		if o.Kind == domain.VoucherFlashSale {
			units = append(units, ReturnedUnit{OrderID: o.ID, UserID: o.UserID})
		}
	}
	if len(units) == 0 {
		return 0, nil
	}
	return u.c.giveBack(ctx, voucherID, unitsBack{Orders: units, FreeSlot: freeSlot})
}

// LineHold implements orders.Sales: with a waitlist, the release of an order holds its
// unit for the first in the sale's line in its own transaction (the waitlist's Hold
// then finds it held and announces it); without one, units go to the stock.
func (u *SaleUnits) LineHold() orders.LineHold {
	if w := u.c.waitlist(); w != nil {
		return orders.LineHold{OfferTTL: w.OfferTTL()}
	}
	return orders.LineHold{}
}

// Live implements orders.Sales with the gate's stock and its count of the sale's
// reservations (which hold only claims whose orders are not written yet).
func (u *SaleUnits) Live(ctx context.Context, voucherID int64) (orders.LiveSale, error) {
	stock, loaded, err := u.c.d.Stock.Stock(ctx, voucherID)
	if err != nil {
		return orders.LiveSale{}, err
	}
	pending, err := u.c.d.Stock.Reservations(ctx, voucherID)
	if err != nil {
		return orders.LiveSale{}, err
	}
	return orders.LiveSale{Stock: stock, Loaded: loaded, Pending: int64(len(pending))}, nil
}

// WaitlistStock is the sale's stock as the waitlist sees it (waitlist.Sales): units that
// went through the whole line come back to the gate through it, and an accepted offer's
// user is marked in the gate through it.
type WaitlistStock struct{ c *core }

// Restock gives a held unit nobody took back to the gate, at most once per source order,
// and opens the sale again.
func (w *WaitlistStock) Restock(ctx context.Context, voucherID int64, u ReturnedUnit) error {
	n, err := w.c.d.Stock.ReturnUnits(ctx, voucherID, []ReturnedUnit{{OrderID: u.OrderID, UserID: u.UserID}}, false)
	if err != nil {
		return err
	}
	if n > 0 {
		w.c.stockBack(ctx, voucherID)
	}
	return nil
}

// TakeSlot marks the user as holding the sale in the gate (true also when the gate does
// not hold the sale: it loads the holders from the database), and on this node's
// sold-out board.
func (w *WaitlistStock) TakeSlot(ctx context.Context, voucherID, userID int64) (bool, error) {
	taken, loaded, err := w.c.d.Stock.TakeSlot(ctx, voucherID, userID)
	if err == nil {
		w.c.soldOut.addHolder(voucherID, userID)
	}
	return taken || !loaded, err
}

// StockLeft is the gate's stock, or the database's when the gate does not hold the sale.
func (w *WaitlistStock) StockLeft(ctx context.Context, voucherID int64) (int64, error) {
	stock, loaded, err := w.c.d.Stock.Stock(ctx, voucherID)
	if err != nil || loaded {
		return stock, err
	}
	return w.c.d.Orders.SaleStock(ctx, voucherID)
}

// ClaimPending reports whether the user has a reservation of the sale waiting for its
// order.
func (w *WaitlistStock) ClaimPending(ctx context.Context, voucherID, userID int64) (bool, error) {
	rs, err := w.c.d.Stock.PendingOfUser(ctx, userID)
	if err != nil {
		return false, err
	}
	for _, r := range rs {
		if r.VoucherID == voucherID {
			return true, nil
		}
	}
	return false, nil
}
