package social

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/dealspot/dealspot/internal/domain"
)

// Config holds the limits of the social use cases.
type Config struct {
	// Pages bounds hotBlogs, blogsOfUser and feed.
	Pages domain.PageLimits
	// Likers bounds blogLikers (the seeds show the first 5).
	Likers domain.PageLimits
	// Location is where days begin and end, for sign-ins and visitor counts.
	Location *time.Location
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
	// MaxVisitorDays bounds the date range of uniqueVisitors.
	MaxVisitorDays int
	// VisitFlush is how often buffered visits are written (default 100ms).
	VisitFlush time.Duration
}

// Deps are the adapters the social use cases need.
type Deps struct {
	Blogs    Blogs
	Follows  Follows
	Users    Users
	Shops    Shops
	Likes    Likes
	Mirror   FollowMirror
	Inboxes  Inboxes
	Fanout   FanoutQueue
	SignIns  SignIns
	Visitors Visitors
	Log      *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time

	// LikeStore keeps likes and SignInStore sign-ins; Likes and SignIns cache them.
	LikeStore   LikeStore
	SignInStore SignInStore
}

// Service is the social use cases.
type Service struct {
	cfg    Config
	d      Deps
	now    func() time.Time
	log    *slog.Logger
	visits *visitBuffer
	// likeLoads coalesces concurrent loads of one blog's likes into the cache.
	likeLoads singleflight.Group
}

// New checks cfg and deps and starts the background writer of visits;
// Close stops them.
func New(cfg Config, d Deps) (*Service, error) {
	switch {
	case d.Blogs == nil, d.Follows == nil, d.Users == nil, d.Shops == nil, d.Likes == nil,
		d.Mirror == nil, d.Inboxes == nil, d.Fanout == nil, d.SignIns == nil, d.Visitors == nil,
		d.LikeStore == nil, d.SignInStore == nil:
		return nil, errors.New("social: missing dependency")
	case cfg.Location == nil:
		return nil, errors.New("social: no time zone")
	case cfg.InboxMax <= 0 || cfg.SyncFanoutMax < 0 || cfg.FollowBackfill < 0 ||
		cfg.CommonFollowsMax <= 0 || cfg.MaxVisitorDays <= 0:
		return nil, fmt.Errorf("social: bad limits %+v", cfg)
	}
	if err := cfg.Pages.Validate(); err != nil {
		return nil, fmt.Errorf("social: pages: %w", err)
	}
	if err := cfg.Likers.Validate(); err != nil {
		return nil, fmt.Errorf("social: likers: %w", err)
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	if cfg.VisitFlush <= 0 {
		cfg.VisitFlush = 100 * time.Millisecond
	}
	s := &Service{cfg: cfg, d: d, now: d.Now, log: d.Log}
	s.visits = startVisitBuffer(d.Visitors, cfg.Location, cfg.VisitFlush, d.Log)
	return s, nil
}

// Close stops the background work, after one last attempt at pending writes.
func (s *Service) Close() {
	s.visits.stop()
}
