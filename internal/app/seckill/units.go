package seckill

import (
	"context"
	"log/slog"

	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/domain"
)

// unitsBack is what goes back to a sale: either a reservation whose claim will never be
// an order (Drop, giving back what Release says), or the units of written orders that
// were canceled or refunded (Orders, FreeSlot letting their users claim again).
type unitsBack struct {
	Drop     int64
	Release  Release
	Orders   []ReturnedUnit
	FreeSlot bool
}

// giveBack is the one place units go back to a sale: it hands them to the gate and,
// when any unit went back, opens the sale again on this node's sold-out board and on
// every node. It returns how many units went back: for a drop 1, or 0 when the
// reservation was gone already (settled or dropped) or gave back no unit.
func (s *core) giveBack(ctx context.Context, voucherID int64, b unitsBack) (int, error) {
	var n int
	if b.Orders != nil {
		var err error
		if n, err = s.d.Stock.ReturnUnits(ctx, voucherID, b.Orders, b.FreeSlot); err != nil {
			return 0, err
		}
	} else {
		dropped, err := s.d.Stock.Drop(ctx, voucherID, b.Drop, b.Release)
		if err != nil {
			return 0, err
		}
		if dropped && b.Release.Stock {
			n = 1
		}
	}
	if n > 0 {
		s.stockBack(ctx, voucherID)
	}
	return n, nil
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
