package inbox

import (
	"context"
	"fmt"
	"log/slog"
	"slices"

	"github.com/dealspot/dealspot/internal/domain"
)

// Page is one page of a user's notifications.
type Page struct {
	Items       []View
	HasNextPage bool
}

// Queries read a user's inbox.
type Queries struct {
	store Store
	bus   Bus
	views *viewer
	pages domain.PageLimits
	log   *slog.Logger
}

// loggedIn refuses an anonymous caller.
func loggedIn(userID int64) error {
	if userID <= 0 {
		return domain.Errorf(domain.CodeUnauthenticated, "log in first")
	}
	return nil
}

// Notifications pages through the user's notifications, the latest activity first,
// from before the Seq before (0: from the newest); unreadOnly leaves out those read. A
// grouped notification that gains an actor moves to the top. Errors: UNAUTHENTICATED;
// BAD_USER_INPUT for a bad page size.
func (q *Queries) Notifications(ctx context.Context, userID int64, first int, before int64, unreadOnly bool) (Page, error) {
	if err := loggedIn(userID); err != nil {
		return Page{}, err
	}
	size, err := q.pages.Size(first)
	if err != nil {
		return Page{}, err
	}
	ns, err := q.store.Page(ctx, userID, unreadOnly, before, size+1)
	if err != nil {
		return Page{}, fmt.Errorf("list notifications: %w", err)
	}
	page := Page{HasNextPage: len(ns) > size}
	if page.HasNextPage {
		ns = ns[:size]
	}
	if page.Items, err = q.views.of(ctx, userID, ns); err != nil {
		return Page{}, err
	}
	return page, nil
}

// UnreadCount counts the user's unread notifications. Errors: UNAUTHENTICATED.
func (q *Queries) UnreadCount(ctx context.Context, userID int64) (int, error) {
	if err := loggedIn(userID); err != nil {
		return 0, err
	}
	n, err := q.store.UnreadCount(ctx, userID)
	if err != nil {
		return 0, fmt.Errorf("count unread notifications: %w", err)
	}
	return n, nil
}

// Settings returns the user's notification settings. Errors: UNAUTHENTICATED.
func (q *Queries) Settings(ctx context.Context, userID int64) (domain.NotificationSettings, error) {
	if err := loggedIn(userID); err != nil {
		return domain.NotificationSettings{}, err
	}
	s, err := q.store.Settings(ctx, []int64{userID})
	if err != nil {
		return domain.NotificationSettings{}, fmt.Errorf("read notification settings: %w", err)
	}
	if v, ok := s[userID]; ok {
		return v, nil
	}
	return domain.DefaultNotificationSettings(), nil
}

// watchBatch is the most notifications one look of a Watch reads: more changes between
// two looks are not all pushed (the inbox still has them).
const watchBatch = 20

// Watch delivers the user's notifications as they are added or gain an actor (a
// grouped notification comes again, counting more), oldest first, until ctx ends; then
// the channel is closed. Pushes may be lost when the connection between nodes breaks:
// a client re-reads its inbox to be sure. Errors: UNAUTHENTICATED.
func (q *Queries) Watch(ctx context.Context, userID int64) (<-chan View, error) {
	if err := loggedIn(userID); err != nil {
		return nil, err
	}
	signals, cancel, err := q.bus.Subscribe(ctx, userID)
	if err != nil {
		return nil, fmt.Errorf("follow notifications: %w", err)
	}
	// Subscribed first, then read: a change in between is both seen and signalled.
	latest, err := q.store.Page(ctx, userID, false, 0, 1)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("read latest notification: %w", err)
	}
	var seen int64
	if len(latest) > 0 {
		seen = latest[0].Seq
	}
	out := make(chan View, 1)
	go func() {
		defer close(out)
		defer cancel()
		for {
			select {
			case <-ctx.Done():
				return
			case <-signals:
			}
			fresh, err := q.since(ctx, userID, seen)
			if err != nil {
				if ctx.Err() == nil {
					q.log.Warn("cannot read new notifications for a subscription", slog.Int64("user_id", userID), slog.Any("error", err))
				}
				continue
			}
			for _, v := range fresh {
				select {
				case out <- v:
				case <-ctx.Done():
					return
				}
				seen = max(seen, v.Seq)
			}
		}
	}()
	return out, nil
}

// since returns the user's notifications with Seq above seen, oldest first.
func (q *Queries) since(ctx context.Context, userID, seen int64) ([]View, error) {
	ns, err := q.store.Page(ctx, userID, false, 0, watchBatch)
	if err != nil {
		return nil, err
	}
	ns = slices.DeleteFunc(ns, func(n domain.Notification) bool { return n.Seq <= seen })
	slices.Reverse(ns)
	return q.views.of(ctx, userID, ns)
}
