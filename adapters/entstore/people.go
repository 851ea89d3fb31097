package entstore

import (
	"context"
	"fmt"

	entsql "entgo.io/ent/dialect/sql"

	"github.com/dealspot/dealspot/ent"
	"github.com/dealspot/dealspot/ent/blog"
	"github.com/dealspot/dealspot/ent/follow"
	"github.com/dealspot/dealspot/ent/user"
	"github.com/dealspot/dealspot/internal/domain"
)

// UpdateProfile stores u's nickname, icon and profile (its other fields are left as
// they are) and returns the user as stored; domain.ErrNotFound for an unknown id.
func (r *Users) UpdateProfile(ctx context.Context, u domain.User) (domain.User, error) {
	upd := r.client.User.UpdateOneID(u.ID).
		SetNickName(u.NickName).SetIcon(u.Icon).SetCity(u.City).SetIntroduction(u.Introduction).
		SetGender(user.Gender(u.Gender))
	if u.Birthday != nil {
		upd.SetBirthday(*u.Birthday)
	} else {
		upd.ClearBirthday()
	}
	row, err := upd.Save(ctx)
	if err != nil {
		return domain.User{}, fmt.Errorf("update profile of user %d: %w", u.ID, notFound(err, "user"))
	}
	return toUser(row), nil
}

// FollowerCounts returns how many users follow each of ids (ids without followers are
// left out), with one grouped count.
func (r *Follows) FollowerCounts(ctx context.Context, ids []int64) (map[int64]int, error) {
	var rows []struct {
		ID    int64 `json:"follow_user_id"`
		Count int   `json:"count"`
	}
	err := r.client.Follow.Query().Where(follow.FollowUserIDIn(ids...)).
		GroupBy(follow.FieldFollowUserID).Aggregate(ent.Count()).Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("count followers: %w", err)
	}
	out := make(map[int64]int, len(rows))
	for _, row := range rows {
		out[row.ID] = row.Count
	}
	return out, nil
}

// FollowingCounts returns how many users each of ids follows (those following nobody
// are left out), with one grouped count.
func (r *Follows) FollowingCounts(ctx context.Context, ids []int64) (map[int64]int, error) {
	var rows []struct {
		ID    int64 `json:"user_id"`
		Count int   `json:"count"`
	}
	err := r.client.Follow.Query().Where(follow.UserIDIn(ids...)).
		GroupBy(follow.FieldUserID).Aggregate(ent.Count()).Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("count followings: %w", err)
	}
	out := make(map[int64]int, len(rows))
	for _, row := range rows {
		out[row.ID] = row.Count
	}
	return out, nil
}

// Followers returns up to limit relations to targetID with id < before (0: from the
// newest), newest first.
func (r *Follows) Followers(ctx context.Context, targetID, before int64, limit int) ([]domain.Follow, error) {
	q := r.client.Follow.Query().Where(follow.FollowUserID(targetID))
	if before > 0 {
		q.Where(follow.IDLT(before))
	}
	rows, err := q.Order(follow.ByID(entsql.OrderDesc())).Limit(limit).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list followers of user %d: %w", targetID, err)
	}
	return toFollows(rows), nil
}

// Following returns up to limit relations from userID with id < before (0: from the
// newest), newest first.
func (r *Follows) Following(ctx context.Context, userID, before int64, limit int) ([]domain.Follow, error) {
	q := r.client.Follow.Query().Where(follow.UserID(userID))
	if before > 0 {
		q.Where(follow.IDLT(before))
	}
	rows, err := q.Order(follow.ByID(entsql.OrderDesc())).Limit(limit).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list followings of user %d: %w", userID, err)
	}
	return toFollows(rows), nil
}

func toFollows(rows []*ent.Follow) []domain.Follow {
	out := make([]domain.Follow, len(rows))
	for i, f := range rows {
		out[i] = domain.Follow{ID: f.ID, UserID: f.UserID, FollowUserID: f.FollowUserID, CreatedAt: f.CreatedAt}
	}
	return out
}

// BlogCounts returns how many blogs each of userIDs wrote (those without any are left
// out), with one grouped count.
func (r *Blogs) BlogCounts(ctx context.Context, userIDs []int64) (map[int64]int, error) {
	var rows []struct {
		ID    int64 `json:"user_id"`
		Count int   `json:"count"`
	}
	err := r.client.Blog.Query().Where(blog.UserIDIn(userIDs...)).
		GroupBy(blog.FieldUserID).Aggregate(ent.Count()).Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("count blogs: %w", err)
	}
	out := make(map[int64]int, len(rows))
	for _, row := range rows {
		out[row.ID] = row.Count
	}
	return out, nil
}
