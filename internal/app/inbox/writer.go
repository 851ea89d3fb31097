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
	store Store
	bus   Bus
	blogs Blogs
	// keep is how many notifications a user keeps.
	keep int
	now  func() time.Time
	log  *slog.Logger
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

// waitlistOfferKey groups the offer of one held unit of a sale (one offer per unit and
// user: a unit never comes back to a user who passed it).
func waitlistOfferKey(voucherID, unitID int64) string {
	return fmt.Sprintf("waitlist:%d:unit:%d", voucherID, unitID)
}

const followedKey = "followed"

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
		a := Addition{UserID: to, Kind: kind, GroupKey: key, BlogID: e.BlogID, CommentID: e.CommentID, OrderID: e.OrderID, At: e.At}
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
		case domain.NotifyOrderPaid, domain.NotifyOrderRefunded, domain.NotifyOrderExpired:
			add(e, e.RecipientID, e.Kind, orderKey(e.Kind, e.OrderID))
		case domain.NotifyWaitlistOffer:
			add(e, e.RecipientID, e.Kind, waitlistOfferKey(e.VoucherID, e.UnitID))
		}
	}
	return adds, nil
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
	case domain.NotifyOrderPaid, domain.NotifyOrderRefunded, domain.NotifyOrderExpired:
		return e.RecipientID > 0 && e.OrderID > 0
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
