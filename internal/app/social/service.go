// Package social assembles the community side of Dealspot from one package per job:
// notes ("blogs") about shops and their comments (notes), likes (likes), follows and
// the feed of followed authors' notes (follows), users as others see them (people),
// daily sign-ins (signins) and unique-visitor counts (visitors). The relational store
// keeps every fact a user created — blogs, likes, follows, sign-ins — and Redis caches
// each on the structure that fits it; visitor counts are derived analytics and live in
// Redis only. New checks the settings and the adapters once and wires the packages to
// one another: a note's readers' likes come from likes, its push into feeds from
// follows, its views are counted by visitors.
package social

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/dealspot/dealspot/internal/app/social/follows"
	"github.com/dealspot/dealspot/internal/app/social/likes"
	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/app/social/people"
	"github.com/dealspot/dealspot/internal/app/social/signins"
	"github.com/dealspot/dealspot/internal/app/social/visitors"
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
	CommentRate notes.Rate
	BlogRate    notes.Rate
	VisitFlush  time.Duration
}

// Deps are the adapters the social use cases need.
type Deps struct {
	Blogs    Blogs
	Follows  Follows
	Users    Users
	Shops    notes.Shops
	Likes    likes.Likes
	Mirror   follows.FollowMirror
	Inboxes  follows.Inboxes
	Fanout   follows.FanoutQueue
	SignIns  signins.SignIns
	Visitors visitors.Visitors
	// ShopOwners lets a shop's merchant read its visitors (nil: ADMINs only).
	ShopOwners visitors.ShopOwners
	Log        *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time

	// LikeStore keeps likes and SignInStore sign-ins; Likes and SignIns cache them.
	LikeStore   likes.LikeStore
	SignInStore signins.SignInStore
	// Comments keeps comments; Limiter bounds how often users post (nil: no limit).
	Comments notes.Comments
	Limiter  notes.RateLimiter
	// ShopCache is told when a shop's reviews changed (nil: nothing caches shops).
	ShopCache notes.ShopInvalidator
	// Credits keeps the credits notes and sign-ins earn.
	Credits Credits
	// Images tells whether the paths of this site that notes and icons show exist.
	Images notes.Images
	// Notifier hands likes, comments and follows to the users' inboxes (nil: nobody
	// is told).
	Notifier Notifier
}

// Service gathers the social use cases. The commands and queries are what a client may
// call; FeedFanout, FollowMirror, LegacyFacts and Visits are run by the server itself.
type Service struct {
	BlogCommands    *notes.BlogCommands
	Blogs           *notes.BlogQueries
	LikeCommands    *likes.LikeCommands
	Likes           *likes.LikeQueries
	FollowCommands  *follows.FollowCommands
	Follows         *follows.FollowQueries
	Feed            *follows.FeedQueries
	SignInCommands  *signins.SignInCommands
	SignIns         *signins.SignInQueries
	Visitors        *visitors.VisitorQueries
	People          *people.PeopleQueries
	PeopleCommands  *people.PeopleCommands
	CommentCommands *notes.CommentCommands
	Comments        *notes.CommentQueries

	FeedFanout   *follows.FanoutWorker
	FollowMirror *follows.FollowLoader
	LegacyFacts  *LegacyImport
	// Visits counts views of shops and blogs (shop.ViewCounter) and writes them.
	Visits *visitors.Visits
	// NoteViews shows notes as a reader sees them (with the reader's likes), for lists of
	// notes other use cases find (the search).
	NoteViews *notes.Views
}

// New checks cfg and deps, builds the use cases and starts the background writer of
// visits; Close stops it.
func New(cfg Config, d Deps) (*Service, error) {
	switch {
	case d.Blogs == nil, d.Follows == nil, d.Users == nil, d.Shops == nil, d.Likes == nil,
		d.Mirror == nil, d.Inboxes == nil, d.Fanout == nil, d.SignIns == nil, d.Visitors == nil,
		d.LikeStore == nil, d.SignInStore == nil, d.Comments == nil, d.Credits == nil, d.Images == nil:
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
	if d.Notifier == nil {
		d.Notifier = noNotifier{}
	}
	if cfg.VisitFlush <= 0 {
		cfg.VisitFlush = 100 * time.Millisecond
	}
	vis := visitors.New(visitors.Config{Location: cfg.Location, MaxDays: cfg.MaxVisitorDays, Flush: cfg.VisitFlush},
		visitors.Deps{Visitors: d.Visitors, Owners: d.ShopOwners, Now: d.Now, Log: d.Log})
	lk := likes.New(cfg.Likers, likes.Deps{Store: d.LikeStore, Cache: d.Likes, Blogs: d.Blogs, Users: d.Users, Notifier: d.Notifier, Log: d.Log, Now: d.Now})
	views := notes.NewViews(lk.Loader)
	fl := follows.New(follows.Config{
		Pages: cfg.Pages, InboxMax: cfg.InboxMax, SyncFanoutMax: cfg.SyncFanoutMax,
		FollowBackfill: cfg.FollowBackfill, CommonFollowsMax: cfg.CommonFollowsMax,
	}, follows.Deps{
		Follows: d.Follows, Mirror: d.Mirror, Users: d.Users, Blogs: d.Blogs, Inboxes: d.Inboxes, Fanout: d.Fanout,
		Views: views, Notifier: d.Notifier, Log: d.Log,
	})
	nt := notes.New(notes.Config{Pages: cfg.Pages, CommentRate: cfg.CommentRate, BlogRate: cfg.BlogRate}, notes.Deps{
		Blogs: d.Blogs, Comments: d.Comments, Shops: d.Shops, Likes: lk.Loader, Publisher: fl.Publisher,
		Visits: vis.Visits, Limiter: d.Limiter, ShopCache: d.ShopCache, Credits: d.Credits, Images: d.Images, Notifier: d.Notifier, Now: d.Now, Log: d.Log,
	})
	si := signins.New(signins.Deps{Store: d.SignInStore, Cache: d.SignIns, Credits: d.Credits, Location: cfg.Location, Now: d.Now, Log: d.Log})
	pp := people.New(cfg.Pages, people.Deps{Users: d.Users, Follows: d.Follows, Blogs: d.Blogs, Images: d.Images, Now: d.Now})
	return &Service{
		BlogCommands:    nt.BlogCommands,
		Blogs:           nt.Blogs,
		CommentCommands: nt.CommentCommands,
		Comments:        nt.Comments,
		LikeCommands:    lk.Commands,
		Likes:           lk.Queries,
		FollowCommands:  fl.Commands,
		Follows:         fl.Queries,
		Feed:            fl.Feed,
		SignInCommands:  si.Commands,
		SignIns:         si.Queries,
		Visitors:        vis.Queries,
		People:          pp.Queries,
		PeopleCommands:  pp.Commands,
		FeedFanout:      fl.Fanout,
		FollowMirror:    fl.Loader,
		LegacyFacts:     &LegacyImport{likes: lk.Legacy, signIns: si.Legacy},
		Visits:          vis.Visits,
		NoteViews:       views,
	}, nil
}

// Close stops the background work, after one last attempt at pending writes.
func (s *Service) Close() {
	s.Visits.Close()
}
