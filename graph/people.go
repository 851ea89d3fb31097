package graph

import (
	"context"

	"github.com/vikstrous/dataloadgen"

	"github.com/dealspot/dealspot/graph/model"
	"github.com/dealspot/dealspot/internal/app/social/people"
	"github.com/dealspot/dealspot/internal/domain"
)

const followCursor = "follow"

// countLoader counts something per user id with one call per batch; a user the map
// lacks counts 0.
func countLoader(count func(ctx context.Context, ids []int64) (map[int64]int, error), opts []dataloadgen.Option) *dataloadgen.Loader[int64, int] {
	return dataloadgen.NewLoader(func(ctx context.Context, ids []int64) ([]int, []error) {
		m, err := count(ctx, ids)
		if err != nil {
			return nil, []error{err}
		}
		out := make([]int, len(ids))
		for i, id := range ids {
			out[i] = m[id]
		}
		return out, nil
	}, opts...)
}

// The per-user counts' loaders.
func countFollowers(l *loaders) *dataloadgen.Loader[int64, int] { return l.followerCounts }
func countFollowing(l *loaders) *dataloadgen.Loader[int64, int] { return l.followingCounts }
func countBlogs(l *loaders) *dataloadgen.Loader[int64, int]     { return l.blogCounts }

// userCount reads one of the user's counts through its loader.
func (r *Resolver) userCount(ctx context.Context, obj *model.User, pick func(*loaders) *dataloadgen.Loader[int64, int]) (int, error) {
	id, err := parseID("id", obj.ID)
	if err != nil {
		return 0, err
	}
	return pick(r.load(ctx)).Load(ctx, id)
}

// followConnection maps a page of follow relations; node is the follower (followers)
// or the followed user (following), each read through the users loader.
func (r *Resolver) followConnection(ctx context.Context, page people.FollowPage, followers bool) (*model.UserConnection, error) {
	es := make([]model.UserEdge, len(page.Follows))
	for i, f := range page.Follows {
		who := f.FollowUserID
		if followers {
			who = f.UserID
		}
		u, err := r.userEdge(ctx, formatID(who))
		if err != nil {
			return nil, err
		}
		es[i] = model.UserEdge{Cursor: encodeCursor(followCursor, f.ID), Node: u, FollowedAt: f.CreatedAt}
	}
	info := &model.PageInfo{HasNextPage: page.HasNextPage}
	if len(es) > 0 {
		info.EndCursor = &es[len(es)-1].Cursor
	}
	return &model.UserConnection{Edges: es, PageInfo: info}, nil
}

// follows pages through a user's followers or followings.
func (r *Resolver) follows(ctx context.Context, userID string, first *int, after *string, followers bool) (*model.UserConnection, error) {
	uid, err := parseID("userId", userID)
	if err != nil {
		return nil, err
	}
	before, err := decodeCursor(followCursor, after)
	if err != nil {
		return nil, err
	}
	list := r.App.Queries.People.Following
	if followers {
		list = r.App.Queries.People.Followers
	}
	page, err := list(ctx, uid, deref(first), before)
	if err != nil {
		return nil, err
	}
	// The nodes' users load in one batch: ask for them all before waiting for any.
	ids := make([]int64, len(page.Follows))
	for i, f := range page.Follows {
		ids[i] = f.FollowUserID
		if followers {
			ids[i] = f.UserID
		}
	}
	if _, err := r.load(ctx).users.LoadAll(ctx, ids); err != nil {
		return nil, err
	}
	return r.followConnection(ctx, page, followers)
}

// profileInput maps the GraphQL input.
func profileInput(in model.UpdateProfileInput) people.ProfileInput {
	out := people.ProfileInput{
		NickName: in.NickName, Icon: in.Icon, City: in.City, Introduction: in.Introduction,
		ClearBirthday: in.ClearBirthday != nil && *in.ClearBirthday,
	}
	if in.Gender != nil {
		g := domain.Gender(*in.Gender)
		out.Gender = &g
	}
	if in.Birthday != nil {
		d := in.Birthday.Day
		out.Birthday = &d
	}
	return out
}

// setBlocked blocks or unblocks the user with the raw id for the calling administrator.
func (r *mutationResolver) setBlocked(ctx context.Context, rawID string, blocked bool) (*model.User, error) {
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	id, err := parseID("userId", rawID)
	if err != nil {
		return nil, err
	}
	u, err := r.App.Commands.SetUserBlocked.Handle(ctx, p, id, blocked)
	if err != nil {
		return nil, err
	}
	return userToModel(u, p), nil
}
