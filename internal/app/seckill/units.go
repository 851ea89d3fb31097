package seckill

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/domain"
)

// unitsBack is what goes back to a sale: either a reservation whose claim will never be
// an order (Drop, of user User, giving back what Release says; Line when the claim was
// accepted, so that its unit is the waitlist's first), or the units of written orders
// that were canceled or refunded (Orders, FreeSlot letting their users claim again).
type unitsBack struct {
	Drop     int64
	User     int64
	Release  Release
	Line     bool
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

// returnOrders gives the units of released orders back. Those their releases held for
// the line (ReturnedUnit.Held) are announced to the users they are held for, and their
// sources' slots freed; the others are the stock's (the releases put them back in the
// database's) and go to the gate, which frees their slots.
func (s *core) returnOrders(ctx context.Context, voucherID int64, units []ReturnedUnit, freeSlot bool) (int, error) {
	var held, rest []ReturnedUnit
	var users []int64
	for _, u := range units {
		if u.Held {
			held = append(held, u)
			users = append(users, u.UserID)
		} else {
			rest = append(rest, u)
		}
	}
	if held != nil {
		if w := s.waitlist(); w != nil {
			if _, err := w.Hold(ctx, voucherID, held); err != nil {
				// The units are held in the database: the waitlist's sweep announces them.
				s.log.Warn("cannot announce units held for a waitlist", slog.Int64("voucher_id", voucherID),
					slog.Int("units", len(held)), slog.Any("error", err))
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

// drop drops a reservation and gives back what its release says. The unit of an
// accepted claim (b.Line) is offered to the sale's waitlist first: the waitlist decides,
// once for the claim and in the database, whether the first in line gets it (it leaves
// the database stock there) or the stock does; then the gate drops the reservation and,
// only in the second case, frees the unit — one atomic step either way, so the unit is
// never in the gate's stock while it is held, and every node dropping the reservation
// gives it back the same way. Until the drop, the reconciler's drift repair may take the
// held unit off the gate's stock too (the reservation still counts): less stock for a
// moment, never more. A claim never accepted (b.Line false: its client got an error)
// gives its unit straight back.
func (s *core) drop(ctx context.Context, voucherID int64, b unitsBack) (int, error) {
	rel := b.Release
	if w := s.waitlist(); w != nil && b.Line && rel.Stock && b.User > 0 {
		// Keyed by minus the order id: an id handed out twice (ReasonIDTaken) also names a
		// written order, whose own unit may come back one day.
		held, err := w.HoldDropped(ctx, voucherID, ReturnedUnit{OrderID: -b.Drop, UserID: b.User})
		if err != nil {
			return 0, fmt.Errorf("offer the unit of failed claim %d to the waitlist of sale %d: %w", b.Drop, voucherID, err)
		}
		rel.Stock = !held
	}
	dropped, err := s.d.Stock.Drop(ctx, voucherID, b.Drop, rel)
	if err != nil || !dropped || !rel.Stock {
		return 0, err
	}
	return 1, nil
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

// ReturnUnits implements orders.Sales: the units of the flash-sale orders of released
// that their releases held for the line are announced; the others go back to the sale
// through the gate, at most once per order id, and the sale opens again if any did.
func (u *SaleUnits) ReturnUnits(ctx context.Context, voucherID int64, released []domain.VoucherOrder, freeSlot bool) (int, error) {
	units := make([]ReturnedUnit, 0, len(released))
	for _, o := range released {
		if o.Kind == domain.VoucherFlashSale {
			units = append(units, ReturnedUnit{OrderID: o.ID, UserID: o.UserID, Held: o.LineHeld})
		}
	}
	if len(units) == 0 {
		return 0, nil
	}
	return u.c.giveBack(ctx, voucherID, unitsBack{Orders: units, FreeSlot: freeSlot})
}

// LineHold implements orders.Sales: with a waitlist, the release of an order holds its
// unit for the first in the sale's line in its own transaction (and reports it:
// domain.VoucherOrder.LineHeld, for ReturnUnits to announce it); without one, units go
// to the stock.
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
