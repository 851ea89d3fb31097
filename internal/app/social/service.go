package social

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

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
	// CommentRate and BlogRate bound how often one user comments and publishes notes
	// (Max 0: no limit).
	CommentRate Rate
	BlogRate    Rate
	VisitFlush  time.Duration
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
	// Comments keeps comments; Limiter bounds how often users post (nil: no limit).
	Comments Comments
	Limiter  RateLimiter
	// ShopCache is told when a shop's reviews changed (nil: nothing caches shops).
	ShopCache ShopInvalidator
}

// Service gathers the social use cases. The commands and queries are what a client may
// call; FeedFanout, FollowMirror, LegacyFacts and Visits are run by the server itself.
type Service struct {
	BlogCommands    *BlogCommands
	Blogs           *BlogQueries
	LikeCommands    *LikeCommands
	Likes           *LikeQueries
	FollowCommands  *FollowCommands
	Follows         *FollowQueries
	Feed            *FeedQueries
	SignInCommands  *SignInCommands
	SignIns         *SignInQueries
	Visitors        *VisitorQueries
	People          *PeopleQueries
	PeopleCommands  *PeopleCommands
	CommentCommands *CommentCommands
	Comments        *CommentQueries

	FeedFanout   *FanoutWorker
	FollowMirror *FollowLoader
	LegacyFacts  *LegacyImport
	// Visits counts views of shops and blogs (shop.ViewCounter) and writes them.
	Visits *Visits

	visits *visitBuffer
}

// New checks cfg and deps, builds the use cases and starts the background writer of
// visits; Close stops it.
func New(cfg Config, d Deps) (*Service, error) {
	switch {
	case d.Blogs == nil, d.Follows == nil, d.Users == nil, d.Shops == nil, d.Likes == nil,
		d.Mirror == nil, d.Inboxes == nil, d.Fanout == nil, d.SignIns == nil, d.Visitors == nil,
		d.LikeStore == nil, d.SignInStore == nil, d.Comments == nil:
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
	cal := calendar{now: d.Now, loc: cfg.Location}
	likes := newLikeLoader(d.Likes, d.LikeStore, d.Log)
	h := &hydrator{likes: likes}
	buf := startVisitBuffer(d.Visitors, cfg.Location, cfg.VisitFlush, d.Log)
	visits := &Visits{buffer: buf, cal: cal}
	limits := &postLimits{limiter: d.Limiter, rates: map[string]Rate{"comment": cfg.CommentRate, "note": cfg.BlogRate}}
	return &Service{
		BlogCommands: &BlogCommands{
			blogs: d.Blogs, shops: d.Shops, follows: d.Follows, inboxes: d.Inboxes, fanout: d.Fanout,
			hydrate: h, syncFanoutMax: cfg.SyncFanoutMax, now: d.Now, log: d.Log, limits: limits,
			shopCache: d.ShopCache,
		},
		CommentCommands: &CommentCommands{comments: d.Comments, limits: limits},
		Comments:        &CommentQueries{comments: d.Comments, pages: cfg.Pages},
		Blogs:           &BlogQueries{blogs: d.Blogs, hydrate: h, visits: visits, pages: cfg.Pages},
		LikeCommands:    &LikeCommands{blogs: d.Blogs, likes: likes, hydrate: h, now: d.Now},
		Likes:           &LikeQueries{likes: likes, users: d.Users, limits: cfg.Likers},
		FollowCommands: &FollowCommands{
			users: d.Users, follows: d.Follows, mirror: d.Mirror, blogs: d.Blogs, inboxes: d.Inboxes,
			backfillMax: cfg.FollowBackfill, inboxMax: cfg.InboxMax, log: d.Log,
		},
		Follows: &FollowQueries{mirror: d.Mirror, users: d.Users, commonMax: cfg.CommonFollowsMax},
		Feed: &FeedQueries{
			inboxes: d.Inboxes, follows: d.Follows, blogs: d.Blogs, hydrate: h,
			pages: cfg.Pages, inboxMax: cfg.InboxMax, log: d.Log,
		},
		SignInCommands: &SignInCommands{store: d.SignInStore, cache: d.SignIns, cal: cal, log: d.Log},
		SignIns:        &SignInQueries{store: d.SignInStore, cache: d.SignIns, cal: cal, log: d.Log},
		Visitors:       &VisitorQueries{visitors: d.Visitors, maxDays: cfg.MaxVisitorDays},
		People:         &PeopleQueries{users: d.Users, follows: d.Follows, blogs: d.Blogs, pages: cfg.Pages},
		PeopleCommands: &PeopleCommands{users: d.Users, now: d.Now},
		FeedFanout:     &FanoutWorker{follows: d.Follows, inboxes: d.Inboxes},
		FollowMirror:   &FollowLoader{follows: d.Follows, mirror: d.Mirror},
		LegacyFacts: &LegacyImport{
			likes: d.Likes, likeStore: d.LikeStore, signIns: d.SignIns, signInStore: d.SignInStore,
		},
		Visits: visits,
		visits: buf,
	}, nil
}

// Close stops the background work, after one last attempt at pending writes.
func (s *Service) Close() {
	s.visits.stop()
}

// calendar tells the current day in the configured time zone.
type calendar struct {
	now func() time.Time
	loc *time.Location
}

// today is the current calendar day in the configured time zone.
func (c calendar) today() time.Time {
	return c.now().In(c.loc)
}
