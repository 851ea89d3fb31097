package reminders

import (
	"context"
	"time"

	"github.com/dealspot/dealspot/internal/app/inbox"
	"github.com/dealspot/dealspot/internal/domain"
)

// Store keeps sale reminders in the relational store: the only copy, shared by every
// node.
type Store interface {
	// Add records r (user, sale, time) unless the user already asked for the sale:
	// false then, and the reminder stored before stays as it was. Before it writes a
	// new one it calls allow, in the same transaction and with the user's other adds
	// held off, with how many of the user's reminders are still waiting (not sent); an
	// error from allow aborts the add and is returned as it is.
	Add(ctx context.Context, r domain.SaleReminder, allow func(waiting int) error) (bool, error)
	// Remove deletes the user's reminder of the sale; false when there was none.
	Remove(ctx context.Context, userID, voucherID int64) (bool, error)
	// Reminded returns which of voucherIDs the user asked to be reminded of; the
	// others are left out.
	Reminded(ctx context.Context, userID int64, voucherIDs []int64) (map[int64]bool, error)
	// Counts returns how many users asked to be reminded of each sale (sent reminders
	// included); sales nobody asked for are left out.
	Counts(ctx context.Context, voucherIDs []int64) (map[int64]int, error)
	// SendDue claims up to limit of the reminders due at d and writes their
	// notifications, all in one transaction, and returns the reminders it sent. A
	// reminder is due when it is not sent and its sale, as it stands now, begins
	// within d.Lead of d.Now (or has begun) and has not ended. Claiming sets sent_at
	// where it is still null, so that of several nodes sending at once each reminder
	// is claimed by one; a transaction that does not commit (an error, a process
	// killed) sends nothing, and its reminders stay due. notification is the inbox
	// line a claimed reminder adds.
	SendDue(ctx context.Context, d Due, limit int, notification func(domain.SaleReminder) inbox.Addition) ([]domain.SaleReminder, error)
}

// Due says which reminders are due: those of sales beginning within Lead of Now.
type Due struct {
	Now  time.Time
	Lead time.Duration
}

// Sales reads the flash sales reminders are about.
type Sales interface {
	// Voucher returns the voucher with id as it stands now; found is false for an
	// unknown id. Errors are infrastructure failures only.
	Voucher(ctx context.Context, id int64) (v domain.Voucher, found bool, err error)
}

// ShopOwners tells who runs a shop.
type ShopOwners interface {
	// ShopOwner returns the id of the user who runs the shop (0: nobody);
	// domain.ErrNotFound for an unknown shop.
	ShopOwner(ctx context.Context, shopID int64) (int64, error)
}

// Bus tells every node whose notifications changed (the inbox's bus), so that their
// notificationAdded subscriptions push the reminders.
type Bus interface {
	// Publish tells every node that the notifications of userIDs changed.
	Publish(ctx context.Context, userIDs ...int64) error
}
