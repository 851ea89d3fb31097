package inbox

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/dealspot/dealspot/internal/app/batchread"
	"github.com/dealspot/dealspot/internal/domain"
)

// Writer turns the events the use cases report into notifications.
type Writer struct {
	store    Store
	bus      Bus
	blogs    Blogs
	audience Audience
	// keep is how many notifications a user keeps.
	keep int
	// maxFanout bounds, per event, the followers a note reaches (FOLLOWED_NOTE) and the
	// fans a sale reaches (SHOP_NEW_SALE).
	maxFanout Fanout
	now       func() time.Time
	log       *slog.Logger
}

// Handle writes the notifications a batch of events makes, in the events' order, and
// tells every node whose inbox changed. The queue that carries the events calls it;
// events of one batch that concern one group are written together (a flood of likes
// of one note is one write per batch).
//
// It may be called again with events it handled (an at-least-once queue): an actor the
// group's unread notification counts already is not counted twice, and an event
// without an actor (an order's) whose group's notification is still unread adds
// nothing. An error means some notifications may not be written; handing the batch
// again writes them.
func (w *Writer) Handle(ctx context.Context, events []domain.NotificationEvent) error {
	adds, err := w.additions(ctx, events)
	if err != nil {
		return err
	}
	if adds, err = w.wanted(ctx, adds); err != nil {
		return err
	}
	var changed []int64 // users whose inbox changed
	var errs []error
	for _, a := range merge(adds) {
		n, ok, err := w.store.Add(ctx, a)
		if err != nil {
			errs = append(errs, fmt.Errorf("add %s notification of user %d: %w", a.Kind, a.UserID, err))
			continue
		}
		if !ok {
			continue
		}
		changed = append(changed, a.UserID)
		if n.Seq%w.pruneEvery() == 0 {
			if _, err := w.store.Prune(ctx, a.UserID, w.keep); err != nil {
				// The next prune of the user deletes them.
				w.log.Warn("cannot delete a user's oldest notifications", slog.Int64("user_id", a.UserID), slog.Any("error", err))
			}
		}
	}
	if len(changed) > 0 {
		if err := w.bus.Publish(context.WithoutCancel(ctx), batchread.UniqueIDs(changed)...); err != nil {
			// Subscriptions miss the push; the inbox has the notifications.
			w.log.Warn("cannot announce new notifications", slog.Int("users", len(changed)), slog.Any("error", err))
		}
	}
	return errors.Join(errs...)
}

// pruneEvery is how many changes of a user's inbox go between two prunes of it (a
// tenth of what it keeps): the prune is paid once per that many writes, and an inbox
// holds at most keep + pruneEvery notifications between prunes.
func (w *Writer) pruneEvery() int64 { return int64(max(1, w.keep/10)) }

// Group keys: the actions of one group collapse into one unread notification.
func likedKey(blogID int64) string      { return fmt.Sprintf("blog:%d:liked", blogID) }
func commentedKey(blogID int64) string  { return fmt.Sprintf("blog:%d:commented", blogID) }
func repliedKey(commentID int64) string { return fmt.Sprintf("comment:%d:replied", commentID) }
func orderKey(k domain.NotificationKind, orderID int64) string {
	return fmt.Sprintf("order:%d:%s", orderID, k)
}
func followedNoteKey(blogID int64) string { return fmt.Sprintf("blog:%d:published", blogID) }
func saleKey(voucherID int64) string      { return fmt.Sprintf("sale:%d", voucherID) }

// waitlistOfferKey groups the offer of one held unit of a sale (one offer per unit and
// user: a unit never comes back to a user who passed it).
func waitlistOfferKey(voucherID, unitID int64) string {
	return fmt.Sprintf("waitlist:%d:unit:%d", voucherID, unitID)
}

const followedKey = "followed"

// SaleReminderAddition is the notification that reminds userID of the flash sale of
// voucherID, at: one group per user and sale, without actors (the server's doing), so
// it is written again only after the user read the last one.
func SaleReminderAddition(userID, voucherID int64, at time.Time) Addition {
	return Addition{UserID: userID, Kind: domain.NotifySaleReminder, GroupKey: fmt.Sprintf("sale:%d:reminder", voucherID),
		VoucherID: voucherID, At: at}
}

// additions are the notifications the events make, before settings: one per user
// concerned other than the actor. Malformed events are logged and left out.
func (w *Writer) additions(ctx context.Context, events []domain.NotificationEvent) ([]Addition, error) {
	authors, err := w.noteAuthors(ctx, events)
	if err != nil {
		return nil, err
	}
	var adds []Addition
	add := func(e domain.NotificationEvent, to int64, kind domain.NotificationKind, key string) {
		if to <= 0 || to == e.ActorID {
			return // nobody, or the actor: nobody is told of their own doing
		}
		a := Addition{UserID: to, Kind: kind, GroupKey: key, BlogID: e.BlogID, CommentID: e.CommentID, OrderID: e.OrderID,
			VoucherID: e.VoucherID, At: e.At}
		if e.ActorID > 0 {
			a.Actors = []int64{e.ActorID}
		}
		if a.At.IsZero() {
			a.At = w.now()
		}
		adds = append(adds, a)
	}
	for _, e := range events {
		if !wellFormed(e) {
			w.log.Warn("dropping a malformed notification event", slog.String("kind", string(e.Kind)),
				slog.Int64("actor_id", e.ActorID), slog.Int64("recipient_id", e.RecipientID))
			continue
		}
		switch e.Kind {
		case domain.NotifyBlogLiked:
			add(e, e.RecipientID, e.Kind, likedKey(e.BlogID))
		case domain.NotifyBlogCommented:
			author, ok := authors[e.BlogID]
			if !ok {
				continue // the note is gone, and its comments with it
			}
			// A reply to the note's author tells them once, as a reply.
			if author != e.ReplyToUserID {
				add(e, author, domain.NotifyBlogCommented, commentedKey(e.BlogID))
			}
			if e.ReplyToID > 0 {
				add(e, e.ReplyToUserID, domain.NotifyCommentReplied, repliedKey(e.ReplyToID))
			}
		case domain.NotifyFollowed:
			add(e, e.RecipientID, e.Kind, followedKey)
		case domain.NotifyOrderPaid, domain.NotifyOrderRefunded, domain.NotifyOrderExpired, domain.NotifyOrderExpiryWarning:
			add(e, e.RecipientID, e.Kind, orderKey(e.Kind, e.OrderID))
		case domain.NotifyFollowedNote:
			followers, err := w.reach(ctx, w.maxFanout.FollowedNote, func(after int64, limit int) ([]int64, error) {
				return w.audience.FollowerIDs(ctx, e.ActorID, after, limit)
			})
			if err != nil {
				return nil, fmt.Errorf("read the followers of author %d: %w", e.ActorID, err)
			}
			for _, to := range followers {
				add(e, to, e.Kind, followedNoteKey(e.BlogID))
			}
		case domain.NotifyShopNewSale:
			fans, err := w.reach(ctx, w.maxFanout.ShopSale, func(after int64, limit int) ([]int64, error) {
				return w.audience.Fans(ctx, e.ShopID, after, limit)
			})
			if err != nil {
				return nil, fmt.Errorf("read the fans of shop %d: %w", e.ShopID, err)
			}
			// The sale is the shop's doing, not a person's: no actor is shown or counted
			// (the merchant who put it on is not told of it all the same).
			sale := e
			sale.ActorID = 0
			for _, to := range fans {
				if to != e.ActorID {
					add(sale, to, e.Kind, saleKey(e.VoucherID))
				}
			}
		case domain.NotifyWaitlistOffer:
			add(e, e.RecipientID, e.Kind, waitlistOfferKey(e.VoucherID, e.UnitID))
		}
	}
	return adds, nil
}

// reachPage is how many followers or fans one read returns.
const reachPage = 1000

// reach pages through an audience, by ascending user id, and returns its first limit
// users: the bound of one event's fan-out.
func (w *Writer) reach(ctx context.Context, limit int, page func(after int64, limit int) ([]int64, error)) ([]int64, error) {
	var out []int64
	after := int64(0)
	for len(out) < limit {
		want := min(reachPage, limit-len(out))
		ids, err := page(after, want)
		if err != nil {
			return nil, err
		}
		out = append(out, ids...)
		if len(ids) < want {
			return out, nil
		}
		after = ids[len(ids)-1]
	}
	w.log.Info("notification fan-out stopped at its bound", slog.Int("users", limit))
	return out, nil
}

// wellFormed reports whether e names what its kind needs.
func wellFormed(e domain.NotificationEvent) bool {
	switch e.Kind {
	case domain.NotifyBlogLiked:
		return e.ActorID > 0 && e.RecipientID > 0 && e.BlogID > 0
	case domain.NotifyBlogCommented:
		return e.ActorID > 0 && e.BlogID > 0 && e.CommentID > 0 && (e.ReplyToID > 0) == (e.ReplyToUserID > 0)
	case domain.NotifyFollowed:
		return e.ActorID > 0 && e.RecipientID > 0
	case domain.NotifyOrderPaid, domain.NotifyOrderRefunded, domain.NotifyOrderExpired, domain.NotifyOrderExpiryWarning:
		return e.RecipientID > 0 && e.OrderID > 0
	case domain.NotifyFollowedNote:
		return e.ActorID > 0 && e.BlogID > 0
	case domain.NotifyShopNewSale:
		return e.ShopID > 0 && e.VoucherID > 0
	case domain.NotifyWaitlistOffer:
		return e.RecipientID > 0 && e.VoucherID > 0 && e.UnitID > 0
	}
	return false
}

// noteAuthors returns the authors of the notes the events' comments are on, by note.
func (w *Writer) noteAuthors(ctx context.Context, events []domain.NotificationEvent) (map[int64]int64, error) {
	var ids []int64
	for _, e := range events {
		if e.Kind == domain.NotifyBlogCommented && e.BlogID > 0 {
			ids = append(ids, e.BlogID)
		}
	}
	ids = batchread.UniqueIDs(ids)
	authors := make(map[int64]int64, len(ids))
	if len(ids) == 0 {
		return authors, nil
	}
	blogs, err := w.blogs.BlogViews(ctx, 0, ids)
	if err != nil {
		return nil, fmt.Errorf("read the authors of commented notes: %w", err)
	}
	for _, b := range blogs {
		authors[b.Blog.ID] = b.Blog.UserID
	}
	return authors, nil
}

// wanted leaves out the additions their users' settings turn off.
func (w *Writer) wanted(ctx context.Context, adds []Addition) ([]Addition, error) {
	if len(adds) == 0 {
		return nil, nil
	}
	users := make([]int64, len(adds))
	for i, a := range adds {
		users[i] = a.UserID
	}
	settings, err := w.store.Settings(ctx, batchread.UniqueIDs(users))
	if err != nil {
		return nil, fmt.Errorf("read notification settings: %w", err)
	}
	return slices.DeleteFunc(adds, func(a Addition) bool {
		s, ok := settings[a.UserID]
		if !ok {
			s = domain.DefaultNotificationSettings()
		}
		return !s.Wants(a.Kind)
	}), nil
}

// merge folds the additions of one user's group into one, at the place of its first:
// the actors in the order they acted, each once; the time and comment of the last.
func merge(adds []Addition) []Addition {
	type group struct {
		user int64
		key  string
	}
	at := map[group]int{}
	var out []Addition
	for _, a := range adds {
		g := group{a.UserID, a.GroupKey}
		i, ok := at[g]
		if !ok {
			at[g] = len(out)
			a.Actors = slices.Clone(a.Actors)
			out = append(out, a)
			continue
		}
		m := &out[i]
		for _, id := range a.Actors {
			if !slices.Contains(m.Actors, id) {
				m.Actors = append(m.Actors, id)
			}
		}
		m.At = a.At
		if a.CommentID > 0 {
			m.CommentID = a.CommentID
		}
	}
	return out
}
