package people

import (
	"context"
	"fmt"

	"github.com/dealspot/dealspot/internal/app/batchread"
	"github.com/dealspot/dealspot/internal/domain"
)

// PeopleQueries read users as other users see them: profiles, counts, followers.
type PeopleQueries struct {
	users   Users
	follows Follows
	blogs   Blogs
	pages   domain.PageLimits
}

// ByIDs returns the users with ids (unknown ones left out) with one query.
func (q *PeopleQueries) ByIDs(ctx context.Context, ids []int64) (map[int64]domain.User, error) {
	users, err := q.users.UsersByIDs(ctx, batchread.UniqueIDs(ids))
	if err != nil {
		return nil, fmt.Errorf("load users: %w", err)
	}
	out := make(map[int64]domain.User, len(users))
	for _, u := range users {
		out[u.ID] = u
	}
	return out, nil
}

// FollowerCounts, FollowingCounts and BlogCounts count, for each of ids, with one query
// each; a user without any is missing from the map (a count of 0).
func (q *PeopleQueries) FollowerCounts(ctx context.Context, ids []int64) (map[int64]int, error) {
	return q.follows.FollowerCounts(ctx, batchread.UniqueIDs(ids))
}

// FollowingCounts: see FollowerCounts.
func (q *PeopleQueries) FollowingCounts(ctx context.Context, ids []int64) (map[int64]int, error) {
	return q.follows.FollowingCounts(ctx, batchread.UniqueIDs(ids))
}

// BlogCounts: see FollowerCounts.
func (q *PeopleQueries) BlogCounts(ctx context.Context, ids []int64) (map[int64]int, error) {
	return q.blogs.BlogCounts(ctx, batchread.UniqueIDs(ids))
}

// FollowPage is one page of follow relations, newest first.
type FollowPage struct {
	Follows     []domain.Follow
	HasNextPage bool
}

// Followers pages through the users following userID, newest first, before the
// relation id before (0: from the newest). Relations are paged by their own ids, so
// follows and unfollows while a client pages neither repeat nor skip the others.
func (q *PeopleQueries) Followers(ctx context.Context, userID int64, first int, before int64) (FollowPage, error) {
	return q.page(ctx, userID, first, before, q.follows.Followers)
}

// Following pages through the users userID follows, as Followers does.
func (q *PeopleQueries) Following(ctx context.Context, userID int64, first int, before int64) (FollowPage, error) {
	return q.page(ctx, userID, first, before, q.follows.Following)
}

func (q *PeopleQueries) page(ctx context.Context, userID int64, first int, before int64,
	list func(ctx context.Context, id, before int64, limit int) ([]domain.Follow, error)) (FollowPage, error) {
	size, err := q.pages.Size(first)
	if err != nil {
		return FollowPage{}, err
	}
	if userID <= 0 || before < 0 {
		return FollowPage{}, domain.Errorf(domain.CodeBadUserInput, "ids must be positive")
	}
	fs, err := list(ctx, userID, before, size+1)
	if err != nil {
		return FollowPage{}, err
	}
	page := FollowPage{Follows: fs}
	if len(fs) > size {
		page.Follows, page.HasNextPage = fs[:size], true
	}
	return page, nil
}
