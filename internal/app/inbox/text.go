package inbox

import (
	"fmt"

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
	case domain.NotifyWaitlistOffer:
		return "A returned unit of a sale you wait for is held for you: accept it in your waitlist before it passes to the next in line"
	}
	return "Something happened"
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
