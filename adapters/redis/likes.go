package redis

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/internal/app/social/likes"
)

var (
	//go:embed lua/like_apply.lua
	likeApplyLua    string
	likeApplyScript = goredis.NewScript(likeApplyLua)

	//go:embed lua/like_load.lua
	likeLoadLua    string
	likeLoadScript = goredis.NewScript(likeLoadLua)
)

// Likes caches each blog's likers in a ZSET (blog:liked:{<blogId>}, member user id, score
// like time in ms) beside the version of the blog's likes it holds
// (blog:liked:{<blogId>}:v). A blog without the version key is not cached; one with it
// and no ZSET has no likes. The database is the source of truth (likes.LikeStore).
type Likes struct {
	client goredis.UniversalClient
}

var _ likes.Likes = (*Likes)(nil)

// NewLikes returns the like cache on client.
func NewLikes(client goredis.UniversalClient) *Likes { return &Likes{client: client} }

func likesKey(blogID int64) string { return "blog:liked:{" + strconv.FormatInt(blogID, 10) + "}" }

func likesVersionKey(blogID int64) string { return likesKey(blogID) + ":v" }

// Apply implements likes.Likes with one script.
func (l *Likes) Apply(ctx context.Context, blogID, userID int64, c likes.LikeChange) (bool, error) {
	liked := 0
	if c.Liked {
		liked = 1
	}
	n, err := likeApplyScript.Run(ctx, l.client, []string{likesKey(blogID), likesVersionKey(blogID)},
		userID, liked, c.At.UnixMilli(), strconv.FormatInt(c.Version, 10)).Int64()
	if err != nil {
		return false, fmt.Errorf("cache like of blog %d: %w", blogID, err)
	}
	return n == 1, nil
}

// Load implements likes.Likes with one script.
func (l *Likes) Load(ctx context.Context, blogID int64, likes likes.BlogLikes) error {
	args := make([]any, 0, 1+2*len(likes.Likes))
	args = append(args, strconv.FormatInt(likes.Version, 10))
	for _, like := range likes.Likes {
		args = append(args, like.At.UnixMilli(), like.UserID)
	}
	err := likeLoadScript.Run(ctx, l.client, []string{likesKey(blogID), likesVersionKey(blogID)}, args...).Err()
	if err != nil {
		return fmt.Errorf("cache likes of blog %d: %w", blogID, err)
	}
	return nil
}

// Forget implements likes.Likes.
func (l *Likes) Forget(ctx context.Context, blogID int64) error {
	if err := l.client.Del(ctx, likesVersionKey(blogID), likesKey(blogID)).Err(); err != nil {
		return fmt.Errorf("drop cached likes of blog %d: %w", blogID, err)
	}
	return nil
}

// LikedBy implements likes.Likes with one pipelined EXISTS and ZSCORE per blog.
func (l *Likes) LikedBy(ctx context.Context, userID int64, blogIDs []int64) (liked, cached []bool, err error) {
	if len(blogIDs) == 0 {
		return nil, nil, nil
	}
	member := strconv.FormatInt(userID, 10)
	exists := make([]*goredis.IntCmd, len(blogIDs))
	scores := make([]*goredis.FloatCmd, len(blogIDs))
	_, err = l.client.Pipelined(ctx, func(pipe goredis.Pipeliner) error {
		for i, id := range blogIDs {
			exists[i] = pipe.Exists(ctx, likesVersionKey(id))
			scores[i] = pipe.ZScore(ctx, likesKey(id), member)
		}
		return nil
	})
	if err != nil && !errors.Is(err, goredis.Nil) {
		return nil, nil, fmt.Errorf("read likes of user %d: %w", userID, err)
	}
	liked, cached = make([]bool, len(blogIDs)), make([]bool, len(blogIDs))
	for i := range blogIDs {
		if exists[i].Val() == 0 {
			continue
		}
		cached[i] = true
		switch err := scores[i].Err(); {
		case err == nil:
			liked[i] = true
		case !errors.Is(err, goredis.Nil):
			return nil, nil, fmt.Errorf("read likes of user %d: %w", userID, err)
		}
	}
	return liked, cached, nil
}

// Likers implements likes.Likes: EXISTS and ZRANGE in one transaction.
func (l *Likes) Likers(ctx context.Context, blogID int64, limit int) ([]int64, bool, error) {
	if limit <= 0 {
		return nil, true, nil
	}
	var (
		exists  *goredis.IntCmd
		members *goredis.StringSliceCmd
	)
	_, err := l.client.TxPipelined(ctx, func(pipe goredis.Pipeliner) error {
		exists = pipe.Exists(ctx, likesVersionKey(blogID))
		members = pipe.ZRange(ctx, likesKey(blogID), 0, int64(limit-1))
		return nil
	})
	if err != nil {
		return nil, false, fmt.Errorf("list likers of blog %d: %w", blogID, err)
	}
	if exists.Val() == 0 {
		return nil, false, nil
	}
	return parseIDs(members.Val()), true, nil
}

// likesLegacyDone marks that every like set written before the database kept likes has
// been handed to Legacy's caller.
const likesLegacyDone = "blog:liked:legacy-imported"

// Legacy implements likes.Likes: SCAN for like sets without a version key, unless a
// marker says an earlier call handed them all over.
func (l *Likes) Legacy(ctx context.Context, fn func(blogID int64, likes []likes.Like) error) error {
	done, err := l.client.Exists(ctx, likesLegacyDone).Result()
	if err != nil || done == 1 {
		return err
	}
	var failed error
	err = scanKeys(ctx, l.client, "blog:liked:{*}", 1000, func(key string) error {
		lb, rb := strings.IndexByte(key, '{'), strings.IndexByte(key, '}')
		if lb < 0 || rb != len(key)-1 {
			return nil // a version key, or another blog:liked:{…}:… key
		}
		blogID, err := strconv.ParseInt(key[lb+1:rb], 10, 64)
		if err != nil || blogID <= 0 {
			return nil
		}
		versioned, err := l.client.Exists(ctx, likesVersionKey(blogID)).Result()
		if err != nil {
			failed = fmt.Errorf("read likes of blog %d: %w", blogID, err)
			return failed
		}
		if versioned == 1 {
			return nil
		}
		members, err := l.client.ZRangeWithScores(ctx, key, 0, -1).Result()
		if err != nil {
			failed = fmt.Errorf("read likes of blog %d: %w", blogID, err)
			return failed
		}
		set := make([]likes.Like, 0, len(members))
		for _, m := range members {
			s, _ := m.Member.(string)
			if id, err := strconv.ParseInt(s, 10, 64); err == nil && id > 0 {
				set = append(set, likes.Like{UserID: id, At: time.UnixMilli(int64(m.Score))})
			}
		}
		if err := fn(blogID, set); err != nil {
			failed = err
			return err
		}
		return nil
	})
	if failed != nil {
		return failed
	}
	if err != nil {
		return fmt.Errorf("look for like sets: %w", err)
	}
	return l.client.Set(ctx, likesLegacyDone, "1", 0).Err()
}

// Count returns how many users like a blog, as cached.
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
