package inbox

import (
	"context"
	"time"

	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/domain"
)

// Addition is one notification to add to a user's inbox, or to merge into the user's
// unread notification of the same group.
type Addition struct {
	UserID   int64
	Kind     domain.NotificationKind
	GroupKey string
	// Actors are the users who acted, in the order they did, each once; none for the
	// server's own doing (orders).
	Actors []int64
	// BlogID, CommentID, OrderID and VoucherID are what it is about (0: none).
	BlogID    int64
	CommentID int64
	OrderID   int64
	VoucherID int64
	At        time.Time
}

// Store keeps the inboxes and the users' settings in the relational store.
type Store interface {
	// Add stores a as a new unread notification, or, when its user has an unread
	// notification with a's GroupKey, adds the actors of a it lacks to that one. Either
	// way, in one transaction that concurrent Adds of the group wait for (so a group has
	// at most one unread notification): a new notification counts a's actors; a
	// notification that gains actors counts them too, takes a's last actor as its
	// latest, a's time as its UpdatedAt and a's CommentID when it has one. A change
	// gives the notification the user's next Seq. It returns the notification as stored
	// and whether it changed anything (false when every actor was counted already, or
	// an unread notification without actors holds the group).
	Add(ctx context.Context, a Addition) (domain.Notification, bool, error)
	// Page returns up to limit of the user's notifications with Seq below before (0:
	// from the newest), newest (highest Seq) first; unreadOnly leaves out those read.
	Page(ctx context.Context, userID int64, unreadOnly bool, before int64, limit int) ([]domain.Notification, error)
	// Notification returns one of the user's notifications, or domain.ErrNotFound (also
	// for another user's).
	Notification(ctx context.Context, userID, id int64) (domain.Notification, error)
	// UnreadCount counts the user's unread notifications.
	UnreadCount(ctx context.Context, userID int64) (int, error)
	// MarkRead marks the user's unread notifications with Seq up to upTo read (all of
	// them for 0) and returns how many it marked.
	MarkRead(ctx context.Context, userID int64, upTo int64) (int, error)
	// Prune deletes the user's notifications past the newest keep, with their actors,
	// and returns how many it deleted.
	Prune(ctx context.Context, userID int64, keep int) (int, error)
	// Settings returns the settings of each of userIDs; users who never changed theirs
	// have domain.DefaultNotificationSettings.
	Settings(ctx context.Context, userIDs []int64) (map[int64]domain.NotificationSettings, error)
	// UpdateSettings changes the user's settings through update, which sees them as
	// stored (the defaults at first), in one transaction, and returns the result.
	UpdateSettings(ctx context.Context, userID int64, update func(*domain.NotificationSettings)) (domain.NotificationSettings, error)
}

// Bus tells every server node whose notifications changed, so the subscriptions of
// those users, wherever they are, read them.
type Bus interface {
	// Publish tells every node that the notifications of userIDs changed.
	Publish(ctx context.Context, userIDs ...int64) error
	// Subscribe signals whenever the user's notifications changed, until cancel is
	// called. Signals not yet taken are merged into one; one is also sent when signals
	// may have been lost (the bus reconnected).
	Subscribe(ctx context.Context, userID int64) (signals <-chan struct{}, cancel func(), err error)
}

// Blogs reads the notes notifications are about: the notes package's queries.
type Blogs interface {
	// BlogViews returns the blogs with those ids as viewerID sees them, in the order of
	// ids, leaving out unknown ones.
	BlogViews(ctx context.Context, viewerID int64, ids []int64) ([]notes.BlogView, error)
}

// Users reads the actors' accounts.
type Users interface {
	// UsersByIDs returns the users with those ids in the order of ids, leaving out
	// unknown ones.
	UsersByIDs(ctx context.Context, ids []int64) ([]domain.User, error)
}

// Vouchers reads the vouchers notifications are about (a reminded sale's).
type Vouchers interface {
	// VouchersByIDs returns the vouchers with those ids, leaving out unknown ones.
	VouchersByIDs(ctx context.Context, ids []int64) (map[int64]domain.Voucher, error)
}

// Orders reads the orders notifications are about.
type Orders interface {
	// OrdersByIDs returns the orders with those ids, leaving out unknown ones, with one
	// query.
	OrdersByIDs(ctx context.Context, ids []int64) ([]domain.VoucherOrder, error)
}
