package redis

import (
	"context"
	"fmt"
	"strconv"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/internal/app/social/follows"
	"github.com/dealspot/dealspot/internal/domain"
)

// followMirrorMarker exists while the follow sets hold the database's relations; it is
// gone on an empty Redis, so a start-up knows to fill them.
const followMirrorMarker = "follows:mirror"

// FollowSets mirrors each user's follows in a SET (follows:<userId>, members the
// followed users' ids).
type FollowSets struct {
	client goredis.UniversalClient
}

var _ follows.FollowMirror = (*FollowSets)(nil)

// NewFollowSets returns the follow mirror on client.
func NewFollowSets(client goredis.UniversalClient) *FollowSets { return &FollowSets{client: client} }

func followsKey(userID int64) string { return "follows:" + strconv.FormatInt(userID, 10) }

// Add implements follows.FollowMirror.
func (f *FollowSets) Add(ctx context.Context, userID, targetID int64) error {
	if err := f.client.SAdd(ctx, followsKey(userID), targetID).Err(); err != nil {
		return fmt.Errorf("mirror follow: %w", err)
	}
	return nil
}

// Remove implements follows.FollowMirror.
func (f *FollowSets) Remove(ctx context.Context, userID, targetID int64) error {
	if err := f.client.SRem(ctx, followsKey(userID), targetID).Err(); err != nil {
		return fmt.Errorf("mirror unfollow: %w", err)
	}
	return nil
}

// Contains implements follows.FollowMirror.
func (f *FollowSets) Contains(ctx context.Context, userID, targetID int64) (bool, error) {
	ok, err := f.client.SIsMember(ctx, followsKey(userID), targetID).Result()
	if err != nil {
		return false, fmt.Errorf("read follow: %w", err)
	}
	return ok, nil
}

// FollowsMany implements follows.FollowMirror with one SMISMEMBER.
func (f *FollowSets) FollowsMany(ctx context.Context, userID int64, targetIDs []int64) ([]bool, error) {
	if len(targetIDs) == 0 {
		return nil, nil
	}
	members := make([]any, len(targetIDs))
	for i, id := range targetIDs {
		members[i] = id
	}
	out, err := f.client.SMIsMember(ctx, followsKey(userID), members...).Result()
	if err != nil {
		return nil, fmt.Errorf("read follows: %w", err)
	}
	return out, nil
}

// Common implements follows.FollowMirror with SINTER. On Redis Cluster the two sets live
// in different slots, so there the intersection is taken here instead.
func (f *FollowSets) Common(ctx context.Context, a, b int64) ([]int64, error) {
	if _, cluster := f.client.(*goredis.ClusterClient); !cluster {
		members, err := f.client.SInter(ctx, followsKey(a), followsKey(b)).Result()
		if err != nil {
			return nil, fmt.Errorf("intersect follows: %w", err)
		}
		return parseIDs(members), nil
	}
	var ma, mb *goredis.StringSliceCmd
	if _, err := f.client.Pipelined(ctx, func(pipe goredis.Pipeliner) error {
		ma, mb = pipe.SMembers(ctx, followsKey(a)), pipe.SMembers(ctx, followsKey(b))
		return nil
	}); err != nil {
		return nil, fmt.Errorf("read follows: %w", err)
	}
	inB := make(map[string]bool, len(mb.Val()))
	for _, m := range mb.Val() {
		inB[m] = true
	}
	var common []string
	for _, m := range ma.Val() {
		if inB[m] {
			common = append(common, m)
		}
	}
	return parseIDs(common), nil
}

// Loaded implements follows.FollowMirror.
func (f *FollowSets) Loaded(ctx context.Context) (bool, error) {
	n, err := f.client.Exists(ctx, followMirrorMarker).Result()
	if err != nil {
		return false, fmt.Errorf("check follow mirror: %w", err)
	}
	return n == 1, nil
}

// AddAll implements follows.FollowMirror in one pipeline.
func (f *FollowSets) AddAll(ctx context.Context, follows []domain.Follow) error {
	if len(follows) == 0 {
		return nil
	}
	byUser := map[int64][]any{}
	for _, fl := range follows {
		byUser[fl.UserID] = append(byUser[fl.UserID], fl.FollowUserID)
	}
	_, err := f.client.Pipelined(ctx, func(pipe goredis.Pipeliner) error {
		for uid, targets := range byUser {
			pipe.SAdd(ctx, followsKey(uid), targets...)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("mirror %d follows: %w", len(follows), err)
	}
	return nil
}

// MarkLoaded implements follows.FollowMirror.
func (f *FollowSets) MarkLoaded(ctx context.Context) error {
	if err := f.client.Set(ctx, followMirrorMarker, "1", 0).Err(); err != nil {
		return fmt.Errorf("mark follow mirror loaded: %w", err)
	}
	return nil
}
