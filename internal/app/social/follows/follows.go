package follows

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"

	"github.com/dealspot/dealspot/internal/app/batchread"
	"github.com/dealspot/dealspot/internal/domain"
)

// FollowCommands follow and unfollow users.
type FollowCommands struct {
	users       Users
	follows     Follows
	mirror      FollowMirror
	blogs       Blogs
	inboxes     Inboxes
	backfillMax int
	inboxMax    int
	notifier    Notifier
	log         *slog.Logger
}

// Follow makes userID follow targetID: stored in the database, mirrored in Redis, and
// the target's newest blogs are placed in the follower's feed. Following someone again
// changes nothing. Errors: BAD_USER_INPUT for oneself; NOT_FOUND for an unknown user.
func (c *FollowCommands) Follow(ctx context.Context, userID, targetID int64) error {
	if targetID == userID {
		return domain.Errorf(domain.CodeBadUserInput, "you cannot follow yourself")
	}
	if targetID <= 0 {
		return domain.Errorf(domain.CodeNotFound, "no user %d", targetID)
	}
	if _, err := c.users.User(ctx, targetID); errors.Is(err, domain.ErrNotFound) {
		return domain.Errorf(domain.CodeNotFound, "no user %d", targetID)
	} else if err != nil {
		return fmt.Errorf("look up user to follow: %w", err)
	}
	created, err := c.follows.Follow(ctx, userID, targetID)
	if err != nil {
		return fmt.Errorf("follow: %w", err)
	}
	// Also when it already held: the mirror may have missed an earlier write.
	if err := c.mirror.Add(ctx, userID, targetID); err != nil {
		return fmt.Errorf("mirror follow: %w", err)
	}
	if created && c.backfillMax > 0 {
		c.backfill(ctx, userID, targetID)
	}
	if created {
		c.notifier.Notify(ctx, domain.NotificationEvent{Kind: domain.NotifyFollowed, ActorID: userID, RecipientID: targetID})
	}
	return nil
}

// backfill places the target's newest blogs in a new follower's inbox, so the feed does
// not start empty. Failures are logged: the follow stands.
func (c *FollowCommands) backfill(ctx context.Context, userID, targetID int64) {
	stamps, err := c.blogs.BlogStamps(ctx, targetID, c.backfillMax)
	if err == nil && len(stamps) > 0 {
		entries := make([]FeedEntry, len(stamps))
		for i, st := range stamps {
			entries[i] = FeedEntry{BlogID: st.ID, Score: st.CreatedAt.UnixMilli()}
		}
		err = c.inboxes.Add(ctx, userID, entries)
	}
	if err != nil {
		c.log.Warn("cannot place a followed author's blogs in the feed", slog.Int64("user_id", userID), slog.Int64("author_id", targetID), slog.Any("error", err))
	}
}

// Unfollow makes userID stop following targetID and takes the target's blogs out of the
// follower's feed. Unfollowing someone not followed changes nothing. Errors:
// BAD_USER_INPUT for oneself.
func (c *FollowCommands) Unfollow(ctx context.Context, userID, targetID int64) error {
	if targetID == userID {
		return domain.Errorf(domain.CodeBadUserInput, "you cannot unfollow yourself")
	}
	if targetID <= 0 {
		return nil
	}
	removed, err := c.follows.Unfollow(ctx, userID, targetID)
	if err != nil {
		return fmt.Errorf("unfollow: %w", err)
	}
	if err := c.mirror.Remove(ctx, userID, targetID); err != nil {
		return fmt.Errorf("mirror unfollow: %w", err)
	}
	if removed {
		// The inbox holds at most InboxMax entries, so no more of the author's blogs can
		// be in it.
		stamps, err := c.blogs.BlogStamps(ctx, targetID, c.inboxMax)
		if err == nil && len(stamps) > 0 {
			ids := make([]int64, len(stamps))
			for i, st := range stamps {
				ids[i] = st.ID
			}
			err = c.inboxes.Remove(ctx, userID, ids)
		}
		if err != nil {
			c.log.Warn("cannot take an unfollowed author's blogs out of the feed", slog.Int64("user_id", userID), slog.Int64("author_id", targetID), slog.Any("error", err))
		}
	}
	return nil
}

// FollowQueries answer who follows whom, from the Redis mirror.
type FollowQueries struct {
	mirror    FollowMirror
	users     Users
	commonMax int
}

// IsFollowing reports whether userID follows targetID.
func (q *FollowQueries) IsFollowing(ctx context.Context, userID, targetID int64) (bool, error) {
	if targetID <= 0 || targetID == userID {
		return false, nil
	}
	ok, err := q.mirror.Contains(ctx, userID, targetID)
	if err != nil {
		return false, fmt.Errorf("is following: %w", err)
	}
	return ok, nil
}

// FollowedBy reports, for each of targetIDs, whether userID follows it, with one look-up
// (false for oneself and for anonymous readers).
func (q *FollowQueries) FollowedBy(ctx context.Context, userID int64, targetIDs []int64) (map[int64]bool, error) {
	out := make(map[int64]bool, len(targetIDs))
	if userID <= 0 || len(targetIDs) == 0 {
		return out, nil
	}
	ids := batchread.UniqueIDs(targetIDs)
	follows, err := q.mirror.FollowsMany(ctx, userID, ids)
	if err != nil {
		return nil, fmt.Errorf("is following: %w", err)
	}
	for i, id := range ids {
		out[id] = i < len(follows) && follows[i] && id != userID
	}
	return out, nil
}

// CommonFollows returns the users both userID and otherID follow (the intersection of
// their follow sets), by id, at most CommonFollowsMax of them.
func (q *FollowQueries) CommonFollows(ctx context.Context, userID, otherID int64) ([]domain.User, error) {
	if otherID <= 0 {
		return nil, nil
	}
	ids, err := q.mirror.Common(ctx, userID, otherID)
	if err != nil {
		return nil, fmt.Errorf("common follows: %w", err)
	}
	slices.Sort(ids)
	if len(ids) > q.commonMax {
		ids = ids[:q.commonMax]
	}
	users, err := q.users.UsersByIDs(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("load common follows: %w", err)
	}
	return users, nil
}
