package inbox

import (
	"fmt"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// Text is the line a client shows for a notification: "Alice and 12 others liked your
// note “Noodles”", "Your order 42 is paid".
func Text(v View) string {
	n := v.Notification
	switch n.Kind {
	case domain.NotifyBlogLiked:
		return who(v) + " liked your note" + title(v)
	case domain.NotifyBlogCommented:
		return who(v) + " commented on your note" + title(v)
	case domain.NotifyCommentReplied:
		return who(v) + " replied to your comment on" + noteOrTitle(v)
	case domain.NotifyFollowed:
		return who(v) + " started following you"
	case domain.NotifyOrderPaid:
		return fmt.Sprintf("Your order %d is paid: show its redemption code at the shop", n.OrderID)
	case domain.NotifyOrderRefunded:
		return fmt.Sprintf("Your order %d was refunded", n.OrderID)
	case domain.NotifyOrderExpired:
		return fmt.Sprintf("Your order %d was canceled: it was not paid in time", n.OrderID)
	case domain.NotifyOrderExpiryWarning:
		return fmt.Sprintf("Your order %d expires %s: pay it to keep it", n.OrderID, expiresIn(v))
	case domain.NotifyFollowedNote:
		return who(v) + " published a new note" + title(v)
	case domain.NotifyShopNewSale:
		shop, sale := "A shop you like", ""
		if v.Shop != nil && v.Shop.Name != "" {
			shop = v.Shop.Name
		}
		if v.Sale != nil {
			sale = ": “" + v.Sale.Title + "”"
		}
		return shop + " has a new flash sale" + sale
	case domain.NotifySaleReminder:
		return saleReminderText(v)
	case domain.NotifyWaitlistOffer:
		sale := "a sale you wait for"
		if v.Sale != nil {
			sale = "“" + v.Sale.Title + "”"
		}
		return "A returned unit of " + sale + " is held for you: accept it in your waitlist before it passes to the next in line"
	}
	return "Something happened"
}

// expiresIn says how long the order had left when the warning was written: "in 5
// minutes" ("soon" once the order cannot be read).
func expiresIn(v View) string {
	if v.Order == nil || v.Order.PayDeadline == nil {
		return "soon"
	}
	left := v.Order.PayDeadline.Sub(v.CreatedAt).Round(time.Minute)
	switch m := int(left / time.Minute); {
	case m <= 1:
		return "in 1 minute"
	default:
		return fmt.Sprintf("in %d minutes", m)
	}
}

// who names the actors: the latest by name, the others counted.
func who(v View) string {
	name := "Someone"
	if v.Actor != nil && v.Actor.NickName != "" {
		name = v.Actor.NickName
	}
	switch others := v.ActorCount - 1; {
	case others == 1:
		return name + " and 1 other"
	case others > 1:
		return fmt.Sprintf("%s and %d others", name, others)
	}
	return name
}

// title quotes the note's title (nothing once the note is gone).
func title(v View) string {
	if v.Blog == nil {
		return ""
	}
	return " “" + v.Blog.Blog.Title + "”"
}

func noteOrTitle(v View) string {
	if v.Blog == nil {
		return " a note"
	}
	return " “" + v.Blog.Blog.Title + "”"
}

// saleReminderText names the reminded sale and when it begins, as the sale stands now.
func saleReminderText(v View) string {
	if v.Sale == nil || v.Sale.FlashSale == nil {
		return "A flash sale you asked to be reminded of begins soon"
	}
	return fmt.Sprintf("The flash sale “%s” begins at %s", v.Sale.Title,
		v.Sale.FlashSale.BeginTime.UTC().Format("2006-01-02 15:04 UTC"))
}
