package app

import "github.com/dealspot/dealspot/internal/app/social"

// SocialCommands are the social use cases that change state.
type SocialCommands struct {
	Blogs   *social.BlogCommands
	Likes   *social.LikeCommands
	Follows *social.FollowCommands
	SignIns *social.SignInCommands
	// Comments writes comments on notes.
	Comments *social.CommentCommands
	// Profiles changes the caller's profile.
	Profiles *social.PeopleCommands
}

// SocialQueries read blogs, follows, feeds, sign-ins and visitors.
type SocialQueries struct {
	Blogs    *social.BlogQueries
	Likes    *social.LikeQueries
	Follows  *social.FollowQueries
	Feed     *social.FeedQueries
	SignIns  *social.SignInQueries
	Visitors *social.VisitorQueries
	// People reads users as other users see them.
	People *social.PeopleQueries
	// Comments reads comments on notes.
	Comments *social.CommentQueries
}

// SocialOperations are the fan-out worker, the rebuilders and the legacy imports.
type SocialOperations struct {
	// FeedFanout handles the fan-out queue's jobs.
	FeedFanout *social.FanoutWorker
	// FollowMirror fills the Redis mirror of follows (LoadFollows, RebuildFollows).
	FollowMirror *social.FollowLoader
	// LegacyFacts copies likes and sign-ins only Redis held into the database.
	LegacyFacts *social.LegacyImport
	// Visits counts views and writes the buffered counts (FlushVisits).
	Visits *social.Visits
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
