package domain

import "time"

// NotificationKind says what a notification tells.
type NotificationKind string

// Notification kinds.
const (
	// NotifyBlogLiked: users liked the recipient's note.
	NotifyBlogLiked NotificationKind = "BLOG_LIKED"
	// NotifyBlogCommented: users commented on the recipient's note (replies included).
	NotifyBlogCommented NotificationKind = "BLOG_COMMENTED"
	// NotifyCommentReplied: users replied to the recipient's comment.
	NotifyCommentReplied NotificationKind = "COMMENT_REPLIED"
	// NotifyFollowed: users started following the recipient.
	NotifyFollowed NotificationKind = "FOLLOWED"
	// NotifyOrderPaid: the recipient's order was paid (its redemption code is ready).
	NotifyOrderPaid NotificationKind = "ORDER_PAID"
	// NotifyOrderRefunded: the recipient's order was refunded.
	NotifyOrderRefunded NotificationKind = "ORDER_REFUNDED"
	// NotifyOrderExpired: the recipient's order was canceled because it was not paid in
	// time.
	NotifyOrderExpired NotificationKind = "ORDER_EXPIRED"
	// NotifyOrderExpiryWarning: the recipient's order is still unpaid and will be
	// canceled soon (ORDER_EXPIRY_WARNING_BEFORE before its pay deadline).
	NotifyOrderExpiryWarning NotificationKind = "ORDER_EXPIRY_WARNING"
	// NotifyFollowedNote: an author the recipient follows published a note.
	NotifyFollowedNote NotificationKind = "FOLLOWED_NOTE"
	// NotifyShopNewSale: a shop the recipient marked as a favourite put a flash sale on.
	NotifyShopNewSale NotificationKind = "SHOP_NEW_SALE"
	// NotifySaleReminder: a flash sale the recipient asked to be reminded of
	// (remindMe) begins soon.
	NotifySaleReminder NotificationKind = "SALE_REMINDER"
	// NotifyWaitlistOffer: a returned unit of a sale the recipient waits for is held for
	// them for a while (acceptOffer claims it).
	NotifyWaitlistOffer NotificationKind = "WAITLIST_OFFER"
)

// NotificationKinds lists every kind.
var NotificationKinds = []NotificationKind{
	NotifyBlogLiked, NotifyBlogCommented, NotifyCommentReplied, NotifyFollowed,
	NotifyOrderPaid, NotifyOrderRefunded, NotifyOrderExpired,
	NotifyOrderExpiryWarning, NotifyFollowedNote, NotifyShopNewSale, NotifySaleReminder, NotifyWaitlistOffer,
}

// Valid reports whether k is one of the kinds.
func (k NotificationKind) Valid() bool {
	for _, v := range NotificationKinds {
		if k == v {
			return true
		}
	}
	return false
}

// Notification is one line of a user's inbox. Actions of one group (several people
// liking one note) collapse into one notification while it is unread: ActorCount counts
// the distinct users who acted, ActorID is the latest of them.
type Notification struct {
	ID int64
	// UserID is the recipient.
	UserID int64
	Kind   NotificationKind
	// GroupKey names the group whose actions collapse into this notification while it
	// is unread (one note's likes, one order's payment).
	GroupKey string
	// ActorID is the latest user who acted (0: the server's own doing, such as a
	// payment arriving); ActorCount counts the distinct users who acted.
	ActorID    int64
	ActorCount int
	// BlogID, CommentID, OrderID and VoucherID are what it is about (0: none).
	// CommentID is the latest comment of the group.
	BlogID    int64
	CommentID int64
	OrderID   int64
	// VoucherID is the flash sale it is about (0: none).
	VoucherID int64
	// Read is whether the recipient marked it read.
	Read bool
	// Seq orders a user's notifications: each change that adds to one (created, or a
	// new actor joined) gives it the user's next number, so the inbox lists the latest
	// activity first.
	Seq int64
	// CreatedAt is when it was created; UpdatedAt when its latest actor acted.
	CreatedAt time.Time
	UpdatedAt time.Time
}

// NotificationEvent is something that happened which may concern a user other than the
// one who did it: the social and order use cases hand these to the inbox, which decides
// who is told and writes the notifications later.
type NotificationEvent struct {
	// Kind is what happened: BLOG_COMMENTED stands for any comment (a reply too; the
	// inbox tells the note's author and the user answered).
	Kind NotificationKind
	// ActorID did it (0: the server).
	ActorID int64
	// RecipientID is whom it concerns; 0 for a comment, whose note's author the inbox
	// looks up, for a published note, whose author's followers it looks up, and for a
	// new sale, whose shop's fans it looks up.
	RecipientID int64
	BlogID      int64
	CommentID   int64
	OrderID     int64
	// ShopID and VoucherID name a shop's new flash sale (SHOP_NEW_SALE), VoucherID the
	// sale a waitlist offer is of and UnitID the unit held (0: none).
	ShopID    int64
	VoucherID int64
	UnitID    int64
	// ReplyToID is the comment a reply answers and ReplyToUserID its author (0: none).
	ReplyToID     int64
	ReplyToUserID int64
	// At is when it happened (zero: when the inbox handles it).
	At time.Time
}

// NotificationSettings say which kinds of notification a user wants.
type NotificationSettings struct {
	// Likes: BLOG_LIKED.
	Likes bool
	// Comments: BLOG_COMMENTED and COMMENT_REPLIED.
	Comments bool
	// Follows: FOLLOWED.
	Follows bool
	// Orders: ORDER_PAID, ORDER_REFUNDED, ORDER_EXPIRED, ORDER_EXPIRY_WARNING, WAITLIST_OFFER.
	Orders bool
	// FollowedNotes: FOLLOWED_NOTE, notes published by followed authors.
	FollowedNotes bool
	// ShopSales: SHOP_NEW_SALE, flash sales of favourite shops.
	ShopSales bool
}

// DefaultNotificationSettings are the settings of a user who never changed them:
// everything about the user's own notes, follows and orders and the sales of their
// favourite shops, not the notes of the authors they follow (the feed has those).
func DefaultNotificationSettings() NotificationSettings {
	return NotificationSettings{Likes: true, Comments: true, Follows: true, Orders: true, ShopSales: true}
}

// Wants reports whether a user with these settings is told about notifications of kind
// k.
func (s NotificationSettings) Wants(k NotificationKind) bool {
	switch k {
	case NotifyBlogLiked:
		return s.Likes
	case NotifyBlogCommented, NotifyCommentReplied:
		return s.Comments
	case NotifyFollowed:
		return s.Follows
	case NotifyOrderPaid, NotifyOrderRefunded, NotifyOrderExpired, NotifyOrderExpiryWarning, NotifyWaitlistOffer:
		return s.Orders
	case NotifyFollowedNote:
		return s.FollowedNotes
	case NotifyShopNewSale:
		return s.ShopSales
	case NotifySaleReminder:
		// Asked for sale by sale (remindMe); cancelReminder is its off switch.
		return true
	}
	return false
}
