// Package notes holds the notes ("blogs") about shops and their comments: publishing,
// editing and deleting a note, reading notes by likes, author or shop, commenting and
// replying, and the checks every piece of user text and every image path passes. A
// note's likes, its push into followers' feeds and the count of its readers belong to
// the likes, follows and visitors packages, reached through the ports Likes, Publisher
// and ViewCounter.
package notes

import (
	"log/slog"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// Config holds the limits of the notes use cases.
type Config struct {
	// Pages bounds hotBlogs, blogsOfUser, blogsOfShop and comment pages.
	Pages domain.PageLimits
	// CommentRate and BlogRate bound how often one user comments and publishes notes
	// (Max 0: no limit).
	CommentRate Rate
	BlogRate    Rate
}

// Deps are what the notes use cases need.
type Deps struct {
	Blogs    Blogs
	Comments Comments
	Shops    Shops
	// Likes tells readers' likes; Publisher pushes new notes into feeds; Visits counts
	// readers.
	Likes     Likes
	Publisher Publisher
	Visits    ViewCounter
	// Limiter bounds how often users post (nil: no limit).
	Limiter RateLimiter
	// ShopCache is told when a shop's reviews changed (nil: nothing caches shops).
	ShopCache ShopInvalidator
	// Credits award authors their notes' credits.
	Credits Credits
	// Images tells whether the paths of this site a note shows exist (nil: not
	// checked).
	Images Images
	// Notifier tells the notes' authors, and the users answered, of comments, and the
	// authors' followers of their new notes.
	Notifier Notifier
	Now      func() time.Time
	Log      *slog.Logger
}

// Service gathers the notes use cases.
type Service struct {
	BlogCommands    *BlogCommands
	Blogs           *BlogQueries
	CommentCommands *CommentCommands
	Comments        *CommentQueries
}

// New builds the notes use cases over d, whose ports the caller (social.New) checked.
func New(cfg Config, d Deps) *Service {
	views := NewViews(d.Likes)
	limits := &postLimits{limiter: d.Limiter, rates: map[string]Rate{"comment": cfg.CommentRate, "note": cfg.BlogRate}}
	return &Service{
		BlogCommands: &BlogCommands{
			blogs: d.Blogs, shops: d.Shops, publisher: d.Publisher, likes: d.Likes, views: views,
			now: d.Now, log: d.Log, limits: limits, shopCache: d.ShopCache, credits: d.Credits, images: d.Images,
			notifier: d.Notifier,
		},
		Blogs:           &BlogQueries{blogs: d.Blogs, views: views, visits: d.Visits, pages: cfg.Pages},
		CommentCommands: &CommentCommands{comments: d.Comments, blogs: d.Blogs, limits: limits, notifier: d.Notifier},
		Comments:        &CommentQueries{comments: d.Comments, pages: cfg.Pages},
	}
}
