package follows

import (
	"context"
	"fmt"
	"log/slog"
	"slices"

	"github.com/dealspot/dealspot/internal/domain"
)

// fanoutPage is how many followers one step of a fan-out reads and pushes to.
const fanoutPage = 1000

// FanoutWorker pushes new blogs to their authors' followers for the fan-out queue.
type FanoutWorker struct {
	follows Follows
	inboxes Inboxes
}

// Handle pushes a blog into the inbox of every follower of its author (the fan-out
// queue's handler). It is idempotent: pushing a blog twice leaves one entry.
func (w *FanoutWorker) Handle(ctx context.Context, job FanoutJob) error {
	e := FeedEntry{BlogID: job.BlogID, Score: job.At.UnixMilli()}
	after := int64(0)
	for {
		ids, err := w.follows.FollowerIDs(ctx, job.AuthorID, after, fanoutPage)
		if err != nil {
			return fmt.Errorf("fan out blog %d: list followers: %w", job.BlogID, err)
		}
		if len(ids) == 0 {
			return nil
		}
		if err := w.inboxes.Push(ctx, ids, e); err != nil {
			return fmt.Errorf("fan out blog %d: %w", job.BlogID, err)
		}
		if len(ids) < fanoutPage {
			return nil
		}
		after = slices.Max(ids)
	}
}

// FeedPublisher pushes a new blog into its author's followers' inboxes: the notes'
// Publisher.
type FeedPublisher struct {
	follows       Follows
	inboxes       Inboxes
	fanout        FanoutQueue
	syncFanoutMax int
	log           *slog.Logger
}

// Publish pushes a new blog into its author's followers' inboxes. Few followers are
// pushed to at once; many are left to the fan-out queue. Failures are logged: the blog
// exists either way.
func (p *FeedPublisher) Publish(ctx context.Context, b domain.Blog) {
	followers, err := p.follows.FollowerIDs(ctx, b.UserID, 0, p.syncFanoutMax+1)
	if err == nil && len(followers) == 0 {
		return
	}
	if err == nil && len(followers) <= p.syncFanoutMax {
		err = p.inboxes.Push(ctx, followers, FeedEntry{BlogID: b.ID, Score: b.CreatedAt.UnixMilli()})
		if err == nil {
			return
		}
	}
	if err != nil {
		p.log.Warn("cannot push new blog to followers; queueing the fan-out", slog.Int64("blog_id", b.ID), slog.Any("error", err))
	}
	if err := p.fanout.Enqueue(ctx, FanoutJob{BlogID: b.ID, AuthorID: b.UserID, At: b.CreatedAt}); err != nil {
		p.log.Error("cannot queue the fan-out of a new blog; followers will not see it in their feeds",
			slog.Int64("blog_id", b.ID), slog.Any("error", err))
	}
}
