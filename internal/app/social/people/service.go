// Package people holds users as other users see them — profiles, follower, following
// and note counts, follower and following pages — and the changes a user makes to their
// own profile.
package people

import (
	"time"

	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/domain"
)

// Deps are what the people use cases need.
type Deps struct {
	Users   Users
	Follows Follows
	Blogs   Blogs
	// Images tells whether an icon that is a path of this site exists (nil: not
	// checked).
	Images notes.Images
	Now    func() time.Time
}

// Service gathers the people use cases.
type Service struct {
	Queries  *PeopleQueries
	Commands *PeopleCommands
}

// New builds the people use cases over d, whose ports the caller (social.New) checked;
// pages bounds follower and following pages.
func New(pages domain.PageLimits, d Deps) *Service {
	return &Service{
		Queries:  &PeopleQueries{users: d.Users, follows: d.Follows, blogs: d.Blogs, pages: pages},
		Commands: &PeopleCommands{users: d.Users, images: d.Images, now: d.Now},
	}
}
