// Package follows holds who follows whom and the feed it makes: following and
// unfollowing, the Redis mirror of the relations (membership tests, follows in common),
// each user's feed inbox of the followed authors' notes, the push of a new note into its
// author's followers' inboxes (inline for a few, through the fan-out queue for many)
// and the refill of an inbox Redis lost.
package follows

import (
	"log/slog"

	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/domain"
)

// Config holds the limits of the follow and feed use cases.
type Config struct {
	// Pages bounds feed.
	Pages domain.PageLimits
	// InboxMax is how many entries a feed inbox keeps.
	InboxMax int
	// SyncFanoutMax is the most followers a new blog is pushed to while createBlog
	// waits; authors with more are served by the fan-out queue.
	SyncFanoutMax int
	// FollowBackfill is how many of an author's newest blogs land in a new follower's
	// inbox.
	FollowBackfill int
	// CommonFollowsMax bounds commonFollows.
	CommonFollowsMax int
}

// Deps are what the follow and feed use cases need.
type Deps struct {
	Follows Follows
	Mirror  FollowMirror
	Users   Users
	Blogs   Blogs
	Inboxes Inboxes
	Fanout  FanoutQueue
	// Views adds the reader's likes to the feed's notes.
	Views *notes.Views
	// Notifier tells users of their new followers.
	Notifier Notifier
	Log      *slog.Logger
}

// Service gathers the follow and feed use cases. Fanout, Loader and Publisher are run by
// the server itself.
type Service struct {
	Commands *FollowCommands
	Queries  *FollowQueries
	Feed     *FeedQueries
	// Fanout handles the fan-out queue's jobs.
	Fanout *FanoutWorker
	// Loader fills the Redis mirror of follows.
	Loader *FollowLoader
	// Publisher pushes a new note into its author's followers' feeds (notes.Publisher).
	Publisher *FeedPublisher
}

// New builds the follow and feed use cases over d, whose ports the caller (social.New)
// checked.
func New(cfg Config, d Deps) *Service {
	return &Service{
		Commands: &FollowCommands{
			users: d.Users, follows: d.Follows, mirror: d.Mirror, blogs: d.Blogs, inboxes: d.Inboxes,
			backfillMax: cfg.FollowBackfill, inboxMax: cfg.InboxMax, notifier: d.Notifier, log: d.Log,
		},
		Queries: &FollowQueries{mirror: d.Mirror, users: d.Users, commonMax: cfg.CommonFollowsMax},
		Feed: &FeedQueries{
			inboxes: d.Inboxes, follows: d.Follows, blogs: d.Blogs, views: d.Views,
			pages: cfg.Pages, inboxMax: cfg.InboxMax, log: d.Log,
		},
		Fanout: &FanoutWorker{follows: d.Follows, inboxes: d.Inboxes},
		Loader: &FollowLoader{follows: d.Follows, mirror: d.Mirror},
		Publisher: &FeedPublisher{
			follows: d.Follows, inboxes: d.Inboxes, fanout: d.Fanout, syncFanoutMax: cfg.SyncFanoutMax, log: d.Log,
		},
	}
}
