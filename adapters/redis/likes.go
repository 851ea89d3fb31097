package redis

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strconv"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/internal/app/social"
)

var (
	//go:embed lua/like_toggle.lua
	likeToggleLua    string
	likeToggleScript = goredis.NewScript(likeToggleLua)
)

// Likes keeps each blog's likers in a ZSET (blog:liked:{<blogId>}, member user id, score
// like time in ms) beside the number of its latest change (blog:liked:{<blogId>}:seq).
type Likes struct {
	client goredis.UniversalClient
}

var _ social.Likes = (*Likes)(nil)

// NewLikes returns the like sets on client.
func NewLikes(client goredis.UniversalClient) *Likes { return &Likes{client: client} }

func likesKey(blogID int64) string { return "blog:liked:{" + strconv.FormatInt(blogID, 10) + "}" }

// Toggle implements social.Likes.
func (l *Likes) Toggle(ctx context.Context, blogID, userID int64, at time.Time) (social.LikeToggle, error) {
	key := likesKey(blogID)
	res, err := likeToggleScript.Run(ctx, l.client, []string{key, key + ":seq"},
		userID, at.UnixMilli(), at.UnixMicro()).Int64Slice()
	if err != nil {
		return social.LikeToggle{}, fmt.Errorf("toggle like of blog %d: %w", blogID, err)
	}
	if len(res) != 3 {
		return social.LikeToggle{}, fmt.Errorf("toggle like of blog %d: unexpected reply %v", blogID, res)
	}
	return social.LikeToggle{Liked: res[0] == 1, Count: int(res[1]), Seq: res[2]}, nil
}

// LikedBy implements social.Likes with one pipelined ZSCORE per blog.
func (l *Likes) LikedBy(ctx context.Context, userID int64, blogIDs []int64) ([]bool, error) {
	if len(blogIDs) == 0 {
		return nil, nil
	}
	member := strconv.FormatInt(userID, 10)
	cmds := make([]*goredis.FloatCmd, len(blogIDs))
	_, err := l.client.Pipelined(ctx, func(pipe goredis.Pipeliner) error {
		for i, id := range blogIDs {
			cmds[i] = pipe.ZScore(ctx, likesKey(id), member)
		}
		return nil
	})
	if err != nil && !errors.Is(err, goredis.Nil) {
		return nil, fmt.Errorf("read likes of user %d: %w", userID, err)
	}
	out := make([]bool, len(blogIDs))
	for i, c := range cmds {
		switch err := c.Err(); {
		case err == nil:
			out[i] = true
		case !errors.Is(err, goredis.Nil):
			return nil, fmt.Errorf("read likes of user %d: %w", userID, err)
		}
	}
	return out, nil
}

// Likers implements social.Likes.
func (l *Likes) Likers(ctx context.Context, blogID int64, limit int) ([]int64, error) {
	if limit <= 0 {
		return nil, nil
	}
	members, err := l.client.ZRange(ctx, likesKey(blogID), 0, int64(limit-1)).Result()
	if err != nil {
		return nil, fmt.Errorf("list likers of blog %d: %w", blogID, err)
	}
	return parseIDs(members), nil
}

// Count returns how many users like a blog.
func (l *Likes) Count(ctx context.Context, blogID int64) (int, error) {
	n, err := l.client.ZCard(ctx, likesKey(blogID)).Result()
	if err != nil {
		return 0, fmt.Errorf("count likes of blog %d: %w", blogID, err)
	}
	return int(n), nil
}

// parseIDs reads decimal ids, skipping anything else.
func parseIDs(members []string) []int64 {
	out := make([]int64, 0, len(members))
	for _, m := range members {
		if id, err := strconv.ParseInt(m, 10, 64); err == nil && id > 0 {
			out = append(out, id)
		}
	}
	return out
}
