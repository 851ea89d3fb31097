package entstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"entgo.io/ent/dialect"

	"github.com/dealspot/dealspot/ent"
	"github.com/dealspot/dealspot/ent/voucherorder"
	"github.com/dealspot/dealspot/ent/waitlistentry"
	"github.com/dealspot/dealspot/ent/waitlistunit"
	"github.com/dealspot/dealspot/internal/app/waitlist"
	"github.com/dealspot/dealspot/internal/domain"
)

// Waitlist holds the sales' waitlists (waitlist_entries) and the returned units held for
// them (waitlist_units). Every move of a unit is a conditional UPDATE on its holder in
// one transaction with the places and the sale's stock it touches, so that of two nodes
// moving one unit exactly one does.
type Waitlist struct {
	client  *ent.Client
	raw     *rawSQL
	dialect string
}

var _ waitlist.Store = (*Waitlist)(nil)

// NewWaitlist returns the waitlists' repository in s. (A function rather than a method
// of Store, whose methods are at archcheck's cap.)
func NewWaitlist(s *Store) *Waitlist {
	return &Waitlist{client: s.client, raw: s.raw(), dialect: s.dialect}
}

// waitlistLockClass is the first key of the PostgreSQL advisory locks that make the
// joins of one sale take turns (the second is the voucher id, folded into 32 bits), so
// the count of live places checked stays true until the insert.
const waitlistLockClass = 0x5741494c // "WAIL"

var livePlace = waitlistentry.StatusIn(waitlistentry.StatusWAITING, waitlistentry.StatusOFFERED)

// Place implements waitlist.Store.
func (r *Waitlist) Place(ctx context.Context, voucherID, userID int64) (domain.WaitlistEntry, bool, error) {
	row, err := r.client.WaitlistEntry.Query().
		Where(waitlistentry.VoucherID(voucherID), waitlistentry.UserID(userID), livePlace).
		Order(ent.Desc(waitlistentry.FieldID)).First(ctx)
	if ent.IsNotFound(err) {
		return domain.WaitlistEntry{}, false, nil
	}
	if err != nil {
		return domain.WaitlistEntry{}, false, fmt.Errorf("read waitlist place: %w", err)
	}
	e, err := r.placeView(ctx, r.client, row)
	return e, err == nil, err
}

// placeView is a place with its live position (WAITING) or its offer (OFFERED).
func (r *Waitlist) placeView(ctx context.Context, c *ent.Client, row *ent.WaitlistEntry) (domain.WaitlistEntry, error) {
	e := domain.WaitlistEntry{ID: row.ID, VoucherID: row.VoucherID, UserID: row.UserID, Status: domain.WaitlistStatus(row.Status),
		JoinedAt: row.CreatedAt}
	switch row.Status {
	case waitlistentry.StatusWAITING:
		n, err := c.WaitlistEntry.Query().Where(waitlistentry.VoucherID(row.VoucherID),
			waitlistentry.StatusEQ(waitlistentry.StatusWAITING), waitlistentry.IDLTE(row.ID)).Count(ctx)
		if err != nil {
			return e, fmt.Errorf("count the places ahead: %w", err)
		}
		e.Position = n
	case waitlistentry.StatusOFFERED:
		u, err := c.WaitlistUnit.Query().Where(waitlistunit.VoucherID(row.VoucherID), waitlistunit.UserID(row.UserID),
			waitlistunit.EntryID(row.ID), waitlistunit.StatusEQ(waitlistunit.StatusHELD)).First(ctx)
		switch {
		case ent.IsNotFound(err):
		case err != nil:
			return e, fmt.Errorf("read the offer of place %d: %w", row.ID, err)
		default:
			o := toOffer(u)
			e.Offer = &o
		}
	}
	return e, nil
}

// Join implements waitlist.Store.
func (r *Waitlist) Join(ctx context.Context, voucherID, userID int64, at time.Time, allow func(live int, holdsOrder bool) error) (domain.WaitlistEntry, bool, error) {
	at = at.UTC()
	var (
		row     *ent.WaitlistEntry
		created bool
	)
	err := WithTx(ctx, r.client, func(tx *ent.Tx) error {
		if r.dialect == dialect.Postgres {
			if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1, $2)", waitlistLockClass, int32(voucherID)); err != nil {
				return fmt.Errorf("lock the sale's waitlist: %w", err)
			}
		}
		var err error
		row, err = tx.WaitlistEntry.Query().Where(waitlistentry.VoucherID(voucherID), waitlistentry.UserID(userID), livePlace).First(ctx)
		if err == nil {
			return nil
		}
		if !ent.IsNotFound(err) {
			return fmt.Errorf("read waitlist place: %w", err)
		}
		live, err := tx.WaitlistEntry.Query().Where(waitlistentry.VoucherID(voucherID), livePlace).Count(ctx)
		if err != nil {
			return fmt.Errorf("count waitlist places: %w", err)
		}
		holds, err := holdsLiveOrder(ctx, tx.Client(), voucherID, userID)
		if err != nil {
			return err
		}
		if err := allow(live, holds); err != nil {
			return err
		}
		row, err = tx.WaitlistEntry.Create().SetVoucherID(voucherID).SetUserID(userID).SetCreatedAt(at).SetUpdatedAt(at).Save(ctx)
		if err != nil {
			return translate(err, "waitlist place", domain.CodeConflict, "you are in this sale's waitlist already")
		}
		created = true
		return nil
	})
	if err != nil {
		return domain.WaitlistEntry{}, false, err
	}
	e, err := r.placeView(ctx, r.client, row)
	return e, created, err
}

// holdsLiveOrder reports whether the user holds an order of the sale that holds a unit
// (the one the partial unique index allows).
func holdsLiveOrder(ctx context.Context, c *ent.Client, voucherID, userID int64) (bool, error) {
	ok, err := c.VoucherOrder.Query().Where(voucherorder.UserID(userID), voucherorder.VoucherID(voucherID),
		voucherorder.KindEQ(voucherorder.KindFLASH_SALE),
		voucherorder.StatusIn(voucherorder.StatusPENDING, voucherorder.StatusCREATED, voucherorder.StatusPAID, voucherorder.StatusUSED)).
		Exist(ctx)
	if err != nil {
		return false, fmt.Errorf("read the user's orders of the sale: %w", err)
	}
	return ok, nil
}

// Leave implements waitlist.Store.
func (r *Waitlist) Leave(ctx context.Context, voucherID, userID int64) (bool, error) {
	n, err := r.client.WaitlistEntry.Delete().Where(waitlistentry.VoucherID(voucherID), waitlistentry.UserID(userID),
		waitlistentry.StatusEQ(waitlistentry.StatusWAITING)).Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("leave waitlist: %w", err)
	}
	return n > 0, nil
}

// PlacesOfUser implements waitlist.Store.
func (r *Waitlist) PlacesOfUser(ctx context.Context, userID int64) ([]domain.WaitlistEntry, error) {
	rows, err := r.client.WaitlistEntry.Query().Where(waitlistentry.UserID(userID), livePlace).
		Order(ent.Asc(waitlistentry.FieldID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list waitlist places: %w", err)
	}
	out := make([]domain.WaitlistEntry, 0, len(rows))
	for _, row := range rows {
		e, err := r.placeView(ctx, r.client, row)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// Passed implements waitlist.Store.
func (r *Waitlist) Passed(ctx context.Context, voucherID, userID int64) (bool, error) {
	row, err := r.client.WaitlistEntry.Query().Where(waitlistentry.VoucherID(voucherID), waitlistentry.UserID(userID)).
		Order(ent.Desc(waitlistentry.FieldID)).First(ctx)
	if ent.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read waitlist place: %w", err)
	}
	return row.Status == waitlistentry.StatusPASSED, nil
}

// errNotHeld ends a hold's transaction without holding (nobody waits, or no stock).
var errNotHeld = errors.New("unit not held")

// Hold implements waitlist.Store.
func (r *Waitlist) Hold(ctx context.Context, voucherID int64, units []waitlist.SourceUnit, now, expires time.Time) ([]waitlist.Held, error) {
	var out []waitlist.Held
	for _, u := range units {
		h, ok, err := r.holdOne(ctx, voucherID, u, now, expires)
		if err != nil {
			return out, err
		}
		if ok {
			out = append(out, h)
		}
	}
	return out, nil
}

// Route implements waitlist.Store: a hold as Hold's, or else a NOT_OFFERED row that
// records the unit went to the stock. The row is inserted after the hold's transaction
// rolled back (the places it offered on the way go back to WAITING with it); a row
// another node wrote meanwhile, held or not, is the answer.
func (r *Waitlist) Route(ctx context.Context, voucherID int64, u waitlist.SourceUnit, now, expires time.Time) (waitlist.Held, error) {
	h, ok, err := r.holdOne(ctx, voucherID, u, now, expires)
	if err != nil || ok {
		return h, err
	}
	now = now.UTC()
	row, err := r.client.WaitlistUnit.Create().SetVoucherID(voucherID).SetSourceOrderID(u.OrderID).SetSourceUserID(u.UserID).
		SetStatus(waitlistunit.StatusNOT_OFFERED).SetOfferedAt(now).SetExpiresAt(now).SetCreatedAt(now).SetUpdatedAt(now).Save(ctx)
	switch {
	case err != nil && ent.IsConstraintError(err):
		row, err = r.client.WaitlistUnit.Query().Where(waitlistunit.SourceOrderID(u.OrderID)).Only(ctx)
		if err != nil {
			return waitlist.Held{}, fmt.Errorf("read the unit of order %d: %w", u.OrderID, err)
		}
		return waitlist.Held{Offer: toOffer(row)}, nil
	case err != nil:
		return waitlist.Held{}, fmt.Errorf("record the unit of order %d as not offered: %w", u.OrderID, err)
	}
	return waitlist.Held{Offer: toOffer(row), New: true}, nil
}

// holdOne is Hold for one unit, in one transaction: ok is false when the unit is not
// held (nobody waits, no stock, or a zero expires) and no row of it exists.
func (r *Waitlist) holdOne(ctx context.Context, voucherID int64, u waitlist.SourceUnit, now, expires time.Time) (waitlist.Held, bool, error) {
	now, expires = now.UTC(), expires.UTC()
	var held *ent.WaitlistUnit
	fresh := false
	err := WithTx(ctx, r.client, func(tx *ent.Tx) error {
		c := tx.Client()
		before, err := c.WaitlistUnit.Query().Where(waitlistunit.SourceOrderID(u.OrderID)).First(ctx)
		if err == nil {
			held = before
			return nil
		}
		if !ent.IsNotFound(err) {
			return fmt.Errorf("read held unit: %w", err)
		}
		if expires.IsZero() {
			return errNotHeld
		}
		next, err := r.nextInLine(ctx, c, voucherID)
		if err != nil {
			return err
		}
		if next == nil {
			return errNotHeld
		}
		took, err := r.moveStock(ctx, tx, voucherID, -1)
		if err != nil {
			return err
		}
		if !took {
			return errNotHeld
		}
		held, err = c.WaitlistUnit.Create().SetVoucherID(voucherID).SetSourceOrderID(u.OrderID).SetSourceUserID(u.UserID).
			SetUserID(next.UserID).SetEntryID(next.ID).SetOfferedAt(now).SetExpiresAt(expires).
			SetCreatedAt(now).SetUpdatedAt(now).Save(ctx)
		if err != nil {
			return fmt.Errorf("hold unit of order %d: %w", u.OrderID, err)
		}
		fresh = true
		return nil
	})
	switch {
	case errors.Is(err, errNotHeld):
		return waitlist.Held{}, false, nil
	case err != nil && ent.IsConstraintError(err):
		// Another node held this source order's unit meanwhile.
		row, rerr := r.client.WaitlistUnit.Query().Where(waitlistunit.SourceOrderID(u.OrderID)).Only(ctx)
		if rerr != nil {
			return waitlist.Held{}, false, errors.Join(err, rerr)
		}
		held = row
	case err != nil:
		return waitlist.Held{}, false, err
	}
	return waitlist.Held{Offer: toOffer(held), New: fresh}, true, nil
}

// nextInLine makes the sale's first WAITING place whose user holds no live order of it
// OFFERED (conditionally: a place another transaction took meanwhile is skipped) and
// returns it; places of users who hold an order are closed PASSED on the way. Nil when
// nobody waits.
func (r *Waitlist) nextInLine(ctx context.Context, c *ent.Client, voucherID int64) (*ent.WaitlistEntry, error) {
	for {
		row, err := c.WaitlistEntry.Query().Where(waitlistentry.VoucherID(voucherID), waitlistentry.StatusEQ(waitlistentry.StatusWAITING)).
			Order(ent.Asc(waitlistentry.FieldID)).First(ctx)
		if ent.IsNotFound(err) {
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("read the first in line: %w", err)
		}
		holds, err := holdsLiveOrder(ctx, c, voucherID, row.UserID)
		if err != nil {
			return nil, err
		}
		to := waitlistentry.StatusOFFERED
		if holds {
			to = waitlistentry.StatusPASSED
		}
		n, err := c.WaitlistEntry.Update().Where(waitlistentry.ID(row.ID), waitlistentry.StatusEQ(waitlistentry.StatusWAITING)).
			SetStatus(to).Save(ctx)
		if err != nil {
			return nil, fmt.Errorf("offer place %d: %w", row.ID, err)
		}
		if n == 1 && !holds {
			return row, nil
		}
	}
}

// moveStock adds delta to the sale's database stock, never below zero (false: it would
// have gone below).
func (r *Waitlist) moveStock(ctx context.Context, tx *ent.Tx, voucherID int64, delta int) (bool, error) {
	a := &args{o: r.raw}
	q := "UPDATE flash_sales SET stock = stock + " + a.p(delta) + ", updated_at = " + a.p(time.Now().UTC()) +
		" WHERE id = " + a.p(voucherID) + " AND stock + " + a.p(delta) + " >= 0"
	res, err := tx.ExecContext(ctx, q, a.vals...)
	if err != nil {
		return false, fmt.Errorf("move the stock of sale %d by %d: %w", voucherID, delta, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// heldUnit reads the unit a move of an offer starts from: waitlist.ErrOfferGone when
// there is no such unit.
func heldUnit(ctx context.Context, c *ent.Client, unitID int64) (*ent.WaitlistUnit, error) {
	row, err := c.WaitlistUnit.Get(ctx, unitID)
	if ent.IsNotFound(err) {
		return nil, waitlist.ErrOfferGone
	}
	if err != nil {
		return nil, fmt.Errorf("read held unit %d: %w", unitID, err)
	}
	return row, nil
}

// PassOn implements waitlist.Store.
func (r *Waitlist) PassOn(ctx context.Context, unitID, from int64, due, restock bool, now, expires time.Time) (waitlist.Passed, error) {
	now, expires = now.UTC(), expires.UTC()
	var p waitlist.Passed
	err := WithTx(ctx, r.client, func(tx *ent.Tx) error {
		c := tx.Client()
		row, err := heldUnit(ctx, c, unitID)
		if err != nil {
			return err
		}
		upd := c.WaitlistUnit.Update().Where(waitlistunit.ID(unitID), waitlistunit.StatusEQ(waitlistunit.StatusHELD),
			waitlistunit.UserID(from), waitlistunit.EntryID(row.EntryID))
		if due {
			upd.Where(waitlistunit.ExpiresAtLTE(now))
		}
		n, err := upd.SetUserID(0).SetEntryID(0).ClearAnnouncedAt().SetUpdatedAt(now).Save(ctx)
		if err != nil {
			return fmt.Errorf("take held unit %d from user %d: %w", unitID, from, err)
		}
		if n == 0 {
			return waitlist.ErrOfferGone
		}
		if err := c.WaitlistEntry.Update().Where(waitlistentry.ID(row.EntryID), waitlistentry.StatusEQ(waitlistentry.StatusOFFERED)).
			SetStatus(waitlistentry.StatusPASSED).Exec(ctx); err != nil {
			return fmt.Errorf("close place %d: %w", row.EntryID, err)
		}
		var next *ent.WaitlistEntry
		if !restock {
			if next, err = r.nextInLine(ctx, c, row.VoucherID); err != nil {
				return err
			}
		}
		if next != nil {
			row, err = c.WaitlistUnit.UpdateOneID(unitID).SetUserID(next.UserID).SetEntryID(next.ID).
				SetOfferedAt(now).SetExpiresAt(expires).Save(ctx)
			if err != nil {
				return fmt.Errorf("hold unit %d for user %d: %w", unitID, next.UserID, err)
			}
			o := toOffer(row)
			p = waitlist.Passed{Unit: o, Next: &o}
			return nil
		}
		if row, err = c.WaitlistUnit.UpdateOneID(unitID).SetStatus(waitlistunit.StatusRESTOCKED).Save(ctx); err != nil {
			return fmt.Errorf("restock unit %d: %w", unitID, err)
		}
		if _, err := r.moveStock(ctx, tx, row.VoucherID, 1); err != nil {
			return err
		}
		p = waitlist.Passed{Unit: toOffer(row), Restocked: true}
		return nil
	})
	return p, err
}

// Accept implements waitlist.Store.
func (r *Waitlist) Accept(ctx context.Context, unitID, userID int64, o domain.VoucherOrder) (domain.VoucherOrder, error) {
	o.CreatedAt = o.CreatedAt.UTC()
	err := WithTx(ctx, r.client, func(tx *ent.Tx) error {
		c := tx.Client()
		row, err := heldUnit(ctx, c, unitID)
		if err != nil {
			return err
		}
		n, err := c.WaitlistUnit.Update().Where(waitlistunit.ID(unitID), waitlistunit.StatusEQ(waitlistunit.StatusHELD),
			waitlistunit.UserID(userID), waitlistunit.ExpiresAtGT(o.CreatedAt)).
			SetStatus(waitlistunit.StatusCLAIMED).SetOrderID(o.ID).SetUpdatedAt(o.CreatedAt).Save(ctx)
		if err != nil {
			return fmt.Errorf("claim held unit %d: %w", unitID, err)
		}
		if n == 0 {
			return waitlist.ErrOfferGone
		}
		if holds, err := holdsLiveOrder(ctx, c, row.VoucherID, userID); err != nil {
			return err
		} else if holds {
			return domain.ErrAlreadyClaimed
		}
		cr := c.VoucherOrder.Create().SetID(o.ID).SetUserID(o.UserID).SetVoucherID(o.VoucherID).SetShopID(o.ShopID).
			SetKind(voucherorder.KindFLASH_SALE).SetQuantity(1).SetAmount(o.Amount).SetStatus(voucherorder.Status(o.Status)).
			SetNillablePayDeadline(o.PayDeadline).SetNillablePayTime(o.PayTime).SetCreatedAt(o.CreatedAt).SetUpdatedAt(o.CreatedAt)
		if o.RedemptionCode != "" {
			cr.SetRedemptionCode(o.RedemptionCode)
		}
		if err := cr.Exec(ctx); err != nil {
			if ent.IsConstraintError(err) {
				return domain.ErrAlreadyClaimed
			}
			return fmt.Errorf("write the order of held unit %d: %w", unitID, err)
		}
		if err := c.WaitlistEntry.Update().Where(waitlistentry.ID(row.EntryID)).SetStatus(waitlistentry.StatusCLAIMED).Exec(ctx); err != nil {
			return fmt.Errorf("close place %d: %w", row.EntryID, err)
		}
		if o.Status == domain.OrderPaid {
			return addSold(ctx, tx, r.raw, o.ShopID, o.VoucherID, 1)
		}
		return nil
	})
	if err != nil {
		return domain.VoucherOrder{}, err
	}
	return o, nil
}

// DueOffers implements waitlist.Store.
func (r *Waitlist) DueOffers(ctx context.Context, now time.Time, limit int) ([]domain.WaitlistOffer, error) {
	rows, err := r.client.WaitlistUnit.Query().Where(waitlistunit.StatusEQ(waitlistunit.StatusHELD), waitlistunit.ExpiresAtLTE(now.UTC())).
		Order(ent.Asc(waitlistunit.FieldExpiresAt), ent.Asc(waitlistunit.FieldID)).Limit(limit).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list offers due: %w", err)
	}
	return toOffers(rows), nil
}

// Unannounced implements waitlist.Store.
func (r *Waitlist) Unannounced(ctx context.Context, heldBy, now time.Time, limit int) ([]domain.WaitlistOffer, error) {
	rows, err := r.client.WaitlistUnit.Query().Where(waitlistunit.StatusEQ(waitlistunit.StatusHELD), waitlistunit.AnnouncedAtIsNil(),
		waitlistunit.OfferedAtLTE(heldBy.UTC()), waitlistunit.ExpiresAtGT(now.UTC())).
		Order(ent.Asc(waitlistunit.FieldOfferedAt), ent.Asc(waitlistunit.FieldID)).Limit(limit).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list offers not announced: %w", err)
	}
	return toOffers(rows), nil
}

// MarkAnnounced implements waitlist.Store.
func (r *Waitlist) MarkAnnounced(ctx context.Context, o domain.WaitlistOffer, at time.Time) (bool, error) {
	n, err := r.client.WaitlistUnit.Update().Where(waitlistunit.ID(o.ID), waitlistunit.StatusEQ(waitlistunit.StatusHELD),
		waitlistunit.UserID(o.UserID), waitlistunit.EntryID(o.EntryID), waitlistunit.AnnouncedAtIsNil()).
		SetAnnouncedAt(at.UTC()).Save(ctx)
	if err != nil {
		return false, fmt.Errorf("mark the offer of unit %d announced: %w", o.ID, err)
	}
	return n == 1, nil
}

// HeldUnits implements waitlist.Store.
func (r *Waitlist) HeldUnits(ctx context.Context, voucherID int64) (int64, error) {
	n, err := r.client.WaitlistUnit.Query().Where(waitlistunit.VoucherID(voucherID), waitlistunit.StatusEQ(waitlistunit.StatusHELD)).Count(ctx)
	if err != nil {
		return 0, fmt.Errorf("count held units: %w", err)
	}
	return int64(n), nil
}

func toOffer(u *ent.WaitlistUnit) domain.WaitlistOffer {
	return domain.WaitlistOffer{ID: u.ID, VoucherID: u.VoucherID, SourceOrderID: u.SourceOrderID, SourceUserID: u.SourceUserID,
		UserID: u.UserID, EntryID: u.EntryID, Status: domain.HeldUnitStatus(u.Status), OfferedAt: u.OfferedAt, ExpiresAt: u.ExpiresAt,
		OrderID: u.OrderID, AnnouncedAt: u.AnnouncedAt}
}

func toOffers(rows []*ent.WaitlistUnit) []domain.WaitlistOffer {
	out := make([]domain.WaitlistOffer, len(rows))
	for i, row := range rows {
		out[i] = toOffer(row)
	}
	return out
}
