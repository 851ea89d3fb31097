package social

import (
	"context"
	"fmt"
	"slices"
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
