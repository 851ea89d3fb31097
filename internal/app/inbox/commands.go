package inbox

import (
	"context"
	"errors"
	"fmt"

	"github.com/dealspot/dealspot/internal/domain"
)

// Commands change a user's inbox and settings.
type Commands struct {
	store Store
}

// MarkRead marks the user's notifications read, those listed at or below the
// notification upTo (0: all), and returns how many were unread. Errors:
// UNAUTHENTICATED; NOT_FOUND for an upTo that is not one of the user's notifications.
func (c *Commands) MarkRead(ctx context.Context, userID, upTo int64) (int, error) {
	if err := loggedIn(userID); err != nil {
		return 0, err
	}
	var seq int64
	if upTo != 0 {
		n, err := c.store.Notification(ctx, userID, upTo)
		if errors.Is(err, domain.ErrNotFound) || upTo < 0 {
			return 0, domain.Errorf(domain.CodeNotFound, "no notification %d", upTo)
		}
		if err != nil {
			return 0, fmt.Errorf("read notification %d: %w", upTo, err)
		}
		seq = n.Seq
	}
	marked, err := c.store.MarkRead(ctx, userID, seq)
	if err != nil {
		return 0, fmt.Errorf("mark notifications read: %w", err)
	}
	return marked, nil
}

// SettingsChange changes some of a user's notification settings; nil leaves one as it
// is.
type SettingsChange struct {
	Likes, Comments, Follows, Orders, FollowedNotes, ShopSales *bool
}

// UpdateSettings applies ch to the user's settings and returns them. It changes the
// kinds of notification written from now on; those written stay. Errors:
// UNAUTHENTICATED.
func (c *Commands) UpdateSettings(ctx context.Context, userID int64, ch SettingsChange) (domain.NotificationSettings, error) {
	if err := loggedIn(userID); err != nil {
		return domain.NotificationSettings{}, err
	}
	set := func(to *bool, v *bool) {
		if v != nil {
			*to = *v
		}
	}
	s, err := c.store.UpdateSettings(ctx, userID, func(s *domain.NotificationSettings) {
		set(&s.Likes, ch.Likes)
		set(&s.Comments, ch.Comments)
		set(&s.Follows, ch.Follows)
		set(&s.Orders, ch.Orders)
		set(&s.FollowedNotes, ch.FollowedNotes)
		set(&s.ShopSales, ch.ShopSales)
	})
	if err != nil {
		return domain.NotificationSettings{}, fmt.Errorf("change notification settings: %w", err)
	}
	return s, nil
}
