package follows

import (
	"context"
	"fmt"
)

// loadPage is how many relations one step of LoadFollows copies.
const loadPage = 1000

// FollowLoader fills the Redis mirror of follows from the database.
type FollowLoader struct {
	follows Follows
	mirror  FollowMirror
}

// LoadFollows fills the Redis mirror from the database when Redis does not hold it (a
// new Redis, or one that lost its data), and returns how many relations it copied.
func (l *FollowLoader) LoadFollows(ctx context.Context) (int, error) {
	loaded, err := l.mirror.Loaded(ctx)
	if err != nil {
		return 0, fmt.Errorf("check follow mirror: %w", err)
	}
	if loaded {
		return 0, nil
	}
	return l.RebuildFollows(ctx)
}

// RebuildFollows copies every relation from the database into the Redis mirror and marks
// it loaded, whatever the mark said: after Redis came back empty the mark may have been
// set by a copy that the wipe cut short. Adding is idempotent, so several nodes may run
// it at once and new follows meanwhile do no harm. An unfollow that lands between the
// page read here and its copy can leave that one relation in the mirror until the pair
// is followed or unfollowed again; the window is one page (loadPage relations) long.
func (l *FollowLoader) RebuildFollows(ctx context.Context) (int, error) {
	n := 0
	after := int64(0)
	for {
		follows, err := l.follows.Follows(ctx, after, loadPage)
		if err != nil {
			return n, fmt.Errorf("read follows: %w", err)
		}
		if len(follows) == 0 {
			break
		}
		if err := l.mirror.AddAll(ctx, follows); err != nil {
			return n, fmt.Errorf("mirror follows: %w", err)
		}
		n += len(follows)
		after = follows[len(follows)-1].ID
	}
	if err := l.mirror.MarkLoaded(ctx); err != nil {
		return n, fmt.Errorf("mark follow mirror loaded: %w", err)
	}
	return n, nil
}
