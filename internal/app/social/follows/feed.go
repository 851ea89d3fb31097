package follows

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"slices"

	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/domain"
)

// FeedCursor is a position in a feed (the seeds' scroll): Max is the score of the last
// entry seen and Offset how many entries with that very score were seen, so entries
// sharing a timestamp are neither skipped nor repeated.
type FeedCursor struct {
	Max    int64
	Offset int
}

// FeedItem is one blog of a feed page with the position right after it.
type FeedItem struct {
	Blog   notes.BlogView
	Cursor FeedCursor
}

// FeedPage is one page of a feed.
type FeedPage struct {
	Items       []FeedItem
	HasNextPage bool
	// End is the position after the last entry read (nil for an empty page). It is the
	// last item's cursor, unless entries whose blog is gone ended the page.
	End *FeedCursor
}

// FeedQueries read a user's feed, refilling its inbox from the database when Redis lost
// it.
type FeedQueries struct {
	inboxes  Inboxes
	follows  Follows
	blogs    Blogs
	views    *notes.Views
	pages    domain.PageLimits
	inboxMax int
	log      *slog.Logger
}

// Page pages through the blogs pushed to userID by the authors they follow, newest
// first, after the cursor (nil: from the newest). Errors: BAD_USER_INPUT for a bad page
// size or cursor.
func (q *FeedQueries) Page(ctx context.Context, userID int64, first int, after *FeedCursor) (FeedPage, error) {
	size, err := q.pages.Size(first)
	if err != nil {
		return FeedPage{}, err
	}
	var max *int64
	offset := 0
	if after != nil {
		// An inbox holds at most InboxMax entries, so no page can have seen more of one score.
		if after.Offset < 1 || after.Offset > q.inboxMax || after.Max < 0 {
			return FeedPage{}, domain.Errorf(domain.CodeBadUserInput, "after: not a valid cursor")
		}
		max, offset = &after.Max, after.Offset
	}
	if err := q.ensureInbox(ctx, userID); err != nil {
		// The feed shows what the inbox holds; the next read tries again.
		q.log.Warn("cannot refill a feed inbox from the database", slog.Int64("user_id", userID), slog.Any("error", err))
	}
	entries, err := q.inboxes.Page(ctx, userID, max, offset, size+1)
	if err != nil {
		return FeedPage{}, fmt.Errorf("read feed: %w", err)
	}
	var page FeedPage
	if len(entries) > size {
		entries, page.HasNextPage = entries[:size], true
	}
	cursors := feedCursors(after, entries)
	if len(cursors) > 0 {
		page.End = &cursors[len(cursors)-1]
	}
	ids := make([]int64, len(entries))
	for i, e := range entries {
		ids[i] = e.BlogID
	}
	blogs, err := q.blogs.BlogsByIDs(ctx, ids)
	if err != nil {
		return FeedPage{}, fmt.Errorf("load feed blogs: %w", err)
	}
	views, err := q.views.Of(ctx, userID, blogs)
	if err != nil {
		return FeedPage{}, err
	}
	// Entries whose blog is gone are skipped, but still count for the cursors.
	byID := make(map[int64]notes.BlogView, len(views))
	for _, v := range views {
		byID[v.Blog.ID] = v
	}
	for i, e := range entries {
		if v, ok := byID[e.BlogID]; ok {
			page.Items = append(page.Items, FeedItem{Blog: v, Cursor: cursors[i]})
		}
	}
	return page, nil
}

// followingPage is how many followed authors one step of a refill reads.
const followingPage = 1000

// ensureInbox refills userID's inbox from the database when Redis lost it (or never
// had it filled): the newest InboxMax blogs of the authors the user follows. It runs on
// the user's first feed read after Redis came back empty, which costs one look-up per
// followed author once, instead of rebuilding every user's inbox at once. Refilling is
// idempotent (a set union, then the usual trim), so concurrent reads and fan-out
// pushes meanwhile do no harm.
func (q *FeedQueries) ensureInbox(ctx context.Context, userID int64) error {
	filled, err := q.inboxes.Filled(ctx, userID)
	if err != nil || filled {
		return err
	}
	return q.refillInbox(ctx, userID)
}

func (q *FeedQueries) refillInbox(ctx context.Context, userID int64) error {
	// Begun before reading the database: a Redis wipe while we read takes the token
	// with it, and Refill then leaves the inbox unmarked for the next read to redo.
	token, err := q.inboxes.BeginRefill(ctx, userID)
	if err != nil {
		return err
	}
	var entries []FeedEntry
	after := int64(0)
	for {
		authors, err := q.follows.FollowingIDs(ctx, userID, after, followingPage)
		if err != nil {
			return fmt.Errorf("list followed authors: %w", err)
		}
		for _, author := range authors {
			stamps, err := q.blogs.BlogStamps(ctx, author, q.inboxMax)
			if err != nil {
				return fmt.Errorf("list blogs of author %d: %w", author, err)
			}
			for _, st := range stamps {
				entries = append(entries, FeedEntry{BlogID: st.ID, Score: st.CreatedAt.UnixMilli()})
			}
		}
		// Keep memory bounded by the inbox's size, whatever the number of authors.
		entries = newestEntries(entries, q.inboxMax)
		if len(authors) < followingPage {
			break
		}
		after = authors[len(authors)-1]
	}
	marked, err := q.inboxes.Refill(ctx, userID, token, entries)
	if err != nil {
		return err
	}
	q.log.Debug("feed inbox refilled from the database", slog.Int64("user_id", userID), slog.Int("blogs", len(entries)), slog.Bool("marked", marked))
	return nil
}

// newestEntries keeps the newest max entries (ties by higher blog id, the inbox's order).
func newestEntries(entries []FeedEntry, max int) []FeedEntry {
	slices.SortFunc(entries, func(a, b FeedEntry) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(b.BlogID, a.BlogID))
	})
	return entries[:min(len(entries), max)]
}

// feedCursors returns the position after each entry of a page read from after: the
// entry's score, and how many entries of that score were seen up to it — counting those
// seen before this page when the score is the cursor's own.
func feedCursors(after *FeedCursor, entries []FeedEntry) []FeedCursor {
	out := make([]FeedCursor, len(entries))
	for i, e := range entries {
		c := FeedCursor{Max: e.Score, Offset: 1}
		switch {
		case i > 0 && entries[i-1].Score == e.Score:
			c.Offset = out[i-1].Offset + 1
		case i == 0 && after != nil && after.Max == e.Score:
			c.Offset = after.Offset + 1
		}
		out[i] = c
	}
	return out
}
