// Package likes holds the likes of notes: liking and unliking, who likes a note, and
// whether a reader likes the notes they read. The relational store keeps every like;
// Redis caches each note's likers in the order they liked, loaded from the store when it
// lacks them.
package likes

import (
	"log/slog"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// Deps are what the like use cases need.
type Deps struct {
	// Store keeps likes; Cache caches them.
	Store LikeStore
	Cache Likes
	Blogs Blogs
	Users Users
	// Notifier tells the notes' authors of their likes.
	Notifier Notifier
	Log      *slog.Logger
	Now      func() time.Time
}

// Service gathers the like use cases.
type Service struct {
	Commands *LikeCommands
	Queries  *LikeQueries
	// Loader reads likes through the cache: the notes tell their readers' likes with it.
	Loader *Loader
	// Legacy copies the likes only Redis held into the store.
	Legacy *LegacyImport
}

// New builds the like use cases over d, whose ports the caller (social.New) checked;
// likers bounds blogLikers.
func New(likers domain.PageLimits, d Deps) *Service {
	loader := NewLoader(d.Cache, d.Store, d.Log)
	return &Service{
		Commands: &LikeCommands{blogs: d.Blogs, likes: loader, notifier: d.Notifier, now: d.Now},
		Queries:  &LikeQueries{likes: loader, users: d.Users, limits: likers},
		Loader:   loader,
		Legacy:   &LegacyImport{likes: d.Cache, store: d.Store},
	}
}
