package app

import (
	"github.com/dealspot/dealspot/internal/app/social"
	"github.com/dealspot/dealspot/internal/app/social/follows"
	"github.com/dealspot/dealspot/internal/app/social/likes"
	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/app/social/people"
	"github.com/dealspot/dealspot/internal/app/social/signins"
	"github.com/dealspot/dealspot/internal/app/social/visitors"
)

// SocialCommands are the social use cases that change state.
type SocialCommands struct {
	Blogs   *notes.BlogCommands
	Likes   *likes.LikeCommands
	Follows *follows.FollowCommands
	SignIns *signins.SignInCommands
	// Comments writes comments on notes.
	Comments *notes.CommentCommands
	// Profiles changes the caller's profile.
	Profiles *people.PeopleCommands
}

// SocialQueries read blogs, follows, feeds, sign-ins and visitors.
type SocialQueries struct {
	Blogs    *notes.BlogQueries
	Likes    *likes.LikeQueries
	Follows  *follows.FollowQueries
	Feed     *follows.FeedQueries
	SignIns  *signins.SignInQueries
	Visitors *visitors.VisitorQueries
	// People reads users as other users see them.
	People *people.PeopleQueries
	// Comments reads comments on notes.
	Comments *notes.CommentQueries
}

// SocialOperations are the fan-out worker, the rebuilders and the legacy imports.
type SocialOperations struct {
	// FeedFanout handles the fan-out queue's jobs.
	FeedFanout *follows.FanoutWorker
	// FollowMirror fills the Redis mirror of follows (LoadFollows, RebuildFollows).
	FollowMirror *follows.FollowLoader
	// LegacyFacts copies likes and sign-ins only Redis held into the database.
	LegacyFacts *social.LegacyImport
	// Visits counts views and writes the buffered counts (FlushVisits).
	Visits *visitors.Visits
}

// Social splits the social use cases into what a client may call and what the
// server runs.
func Social(s *social.Service) (SocialCommands, SocialQueries, SocialOperations) {
	return SocialCommands{
			Blogs: s.BlogCommands, Likes: s.LikeCommands, Follows: s.FollowCommands, SignIns: s.SignInCommands, Comments: s.CommentCommands, Profiles: s.PeopleCommands,
		}, SocialQueries{
			Blogs: s.Blogs, Likes: s.Likes, Follows: s.Follows, Feed: s.Feed, SignIns: s.SignIns, Visitors: s.Visitors, People: s.People, Comments: s.Comments,
		}, SocialOperations{
			FeedFanout: s.FeedFanout, FollowMirror: s.FollowMirror, LegacyFacts: s.LegacyFacts, Visits: s.Visits,
		}
}
