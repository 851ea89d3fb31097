package entstore

import (
	"context"
	"fmt"

	"github.com/dealspot/dealspot/ent"
	"github.com/dealspot/dealspot/ent/follow"
	"github.com/dealspot/dealspot/internal/app/social"
	"github.com/dealspot/dealspot/internal/domain"
)

// Follows reads and writes follow relations.
type Follows struct {
	client *ent.Client
}

var _ social.Follows = (*Follows)(nil)

// Follows returns the follow repository.
func (s *Store) Follows() *Follows { return &Follows{client: s.client} }

// Follow records that userID follows targetID; false when it already held. The unique
// index on (user_id, follow_user_id) decides between concurrent calls.
func (r *Follows) Follow(ctx context.Context, userID, targetID int64) (bool, error) {
	if userID <= 0 || targetID <= 0 || userID == targetID {
		return false, domain.Errorf(domain.CodeBadUserInput, "a follow needs two different users")
	}
	err := r.client.Follow.Create().SetUserID(userID).SetFollowUserID(targetID).Exec(ctx)
	switch {
	case err == nil:
		return true, nil
	case ent.IsConstraintError(err):
		return false, nil
	}
	return false, fmt.Errorf("follow user %d: %w", targetID, translate(err, "follow", "", ""))
}

// Unfollow removes that relation; false when it did not hold.
func (r *Follows) Unfollow(ctx context.Context, userID, targetID int64) (bool, error) {
	n, err := r.client.Follow.Delete().
		Where(follow.UserID(userID), follow.FollowUserID(targetID)).
		Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("unfollow user %d: %w", targetID, err)
	}
	return n > 0, nil
}

// FollowerIDs returns up to limit ids of targetID's followers greater than after,
// ascending.
func (r *Follows) FollowerIDs(ctx context.Context, targetID, after int64, limit int) ([]int64, error) {
	ids, err := r.client.Follow.Query().
		Where(follow.FollowUserID(targetID), follow.UserIDGT(after)).
		Order(follow.ByUserID()).
		Limit(limit).
		Select(follow.FieldUserID).
		Ints(ctx)
	if err != nil {
		return nil, fmt.Errorf("list followers of user %d: %w", targetID, err)
	}
	out := make([]int64, len(ids))
	for i, id := range ids {
		out[i] = int64(id)
	}
	return out, nil
}

// Follows returns up to limit relations with id > after, ordered by id.
func (r *Follows) Follows(ctx context.Context, after int64, limit int) ([]domain.Follow, error) {
	rows, err := r.client.Follow.Query().
		Where(follow.IDGT(after)).
		Order(follow.ByID()).
		Limit(limit).
		All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list follows: %w", err)
	}
	out := make([]domain.Follow, len(rows))
	for i, f := range rows {
		out[i] = domain.Follow{ID: f.ID, UserID: f.UserID, FollowUserID: f.FollowUserID, CreatedAt: f.CreatedAt}
	}
	return out, nil
}

// FollowingIDs returns up to limit ids greater than after of the users userID follows,
// ascending (the unique index on (user_id, follow_user_id) serves it).
func (r *Follows) FollowingIDs(ctx context.Context, userID, after int64, limit int) ([]int64, error) {
	ids, err := r.client.Follow.Query().
		Where(follow.UserID(userID), follow.FollowUserIDGT(after)).
		Order(follow.ByFollowUserID()).
		Limit(limit).
		Select(follow.FieldFollowUserID).
		Ints(ctx)
	if err != nil {
		return nil, fmt.Errorf("list users followed by user %d: %w", userID, err)
	}
	out := make([]int64, len(ids))
	for i, id := range ids {
		out[i] = int64(id)
	}
	return out, nil
}
