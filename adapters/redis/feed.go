package redis

import (
	"context"
	"crypto/rand"
	_ "embed" // Lua scripts
	"errors"
	"fmt"
	"math"
	"strconv"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/internal/app/social/follows"
)

// Inboxes keeps each user's feed inbox in a ZSET (feed:<userId>): members are blog ids
// written with 19 digits, scores publication times in ms. The fixed width makes Redis's
// order among equal scores (by member, descending in ZREVRANGEBYSCORE) the blogs' id
// order, so a page boundary inside a run of equal timestamps is stable.
//
// {feed:<userId>}:filled is "filled" while the inbox holds what the database says it
// should: it is set when the inbox is refilled from the followed authors' blogs (holding
// the refill's token meanwhile), and is gone with everything else when Redis loses its
// data. Fan-out keeps pushing into inboxes meanwhile, but an inbox without the mark is
// refilled before it is read.
type Inboxes struct {
	client goredis.UniversalClient
	max    int
}

var _ follows.Inboxes = (*Inboxes)(nil)

// NewInboxes returns the inboxes on client; each keeps its newest max entries.
func NewInboxes(client goredis.UniversalClient, max int) (*Inboxes, error) {
	if max <= 0 {
		return nil, errors.New("inboxes: max must be positive")
	}
	return &Inboxes{client: client, max: max}, nil
}

func inboxKey(userID int64) string { return "feed:" + strconv.FormatInt(userID, 10) }

func inboxMember(blogID int64) string { return fmt.Sprintf("%019d", blogID) }

// inboxFilledKey hash-tags the inbox key itself, so both share a slot on Redis Cluster.
func inboxFilledKey(userID int64) string { return "{" + inboxKey(userID) + "}:filled" }

// pushBatch is how many inboxes one pipeline writes.
const pushBatch = 500

// Push implements follows.Inboxes: per inbox, ZADD then trim to the newest max entries.
func (in *Inboxes) Push(ctx context.Context, userIDs []int64, e follows.FeedEntry) error {
	member := goredis.Z{Score: float64(e.Score), Member: inboxMember(e.BlogID)}
	for start := 0; start < len(userIDs); start += pushBatch {
		batch := userIDs[start:min(start+pushBatch, len(userIDs))]
		_, err := in.client.Pipelined(ctx, func(pipe goredis.Pipeliner) error {
			for _, uid := range batch {
				pipe.ZAdd(ctx, inboxKey(uid), member)
				pipe.ZRemRangeByRank(ctx, inboxKey(uid), 0, int64(-in.max-1))
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("push blog %d to %d inboxes: %w", e.BlogID, len(batch), err)
		}
	}
	return nil
}

// Add implements follows.Inboxes.
func (in *Inboxes) Add(ctx context.Context, userID int64, entries []follows.FeedEntry) error {
	if len(entries) == 0 {
		return nil
	}
	zs := make([]goredis.Z, len(entries))
	for i, e := range entries {
		zs[i] = goredis.Z{Score: float64(e.Score), Member: inboxMember(e.BlogID)}
	}
	key := inboxKey(userID)
	_, err := in.client.Pipelined(ctx, func(pipe goredis.Pipeliner) error {
		pipe.ZAdd(ctx, key, zs...)
		pipe.ZRemRangeByRank(ctx, key, 0, int64(-in.max-1))
		return nil
	})
	if err != nil {
		return fmt.Errorf("add %d blogs to inbox of user %d: %w", len(entries), userID, err)
	}
	return nil
}

// filledValue marks an inbox filled; any other value of the mark is a refill's token.
const filledValue = "filled"

// Filled implements follows.Inboxes.
func (in *Inboxes) Filled(ctx context.Context, userID int64) (bool, error) {
	v, err := in.client.Get(ctx, inboxFilledKey(userID)).Result()
	if errors.Is(err, goredis.Nil) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("check inbox of user %d: %w", userID, err)
	}
	return v == filledValue, nil
}

// BeginRefill implements follows.Inboxes: it sets the mark to a token of this refill, so
// that Refill can tell whether Redis lost its data meanwhile.
func (in *Inboxes) BeginRefill(ctx context.Context, userID int64) (string, error) {
	token := rand.Text()
	if err := in.client.Set(ctx, inboxFilledKey(userID), token, 0).Err(); err != nil {
		return "", fmt.Errorf("begin refilling inbox of user %d: %w", userID, err)
	}
	return token, nil
}

var (
	//go:embed lua/feed_refill.lua
	feedRefillLua    string
	feedRefillScript = goredis.NewScript(feedRefillLua)
)

// Refill implements follows.Inboxes in one script (the inbox and its mark share a hash
// slot).
func (in *Inboxes) Refill(ctx context.Context, userID int64, token string, entries []follows.FeedEntry) (bool, error) {
	args := make([]any, 0, 2+2*len(entries))
	args = append(args, token, in.max)
	for _, e := range entries {
		args = append(args, e.Score, inboxMember(e.BlogID))
	}
	n, err := feedRefillScript.Run(ctx, in.client, []string{inboxKey(userID), inboxFilledKey(userID)}, args...).Int()
	if err != nil {
		return false, fmt.Errorf("refill inbox of user %d with %d blogs: %w", userID, len(entries), err)
	}
	return n == 1, nil
}

// Remove implements follows.Inboxes.
func (in *Inboxes) Remove(ctx context.Context, userID int64, blogIDs []int64) error {
	if len(blogIDs) == 0 {
		return nil
	}
	members := make([]any, len(blogIDs))
	for i, id := range blogIDs {
		members[i] = inboxMember(id)
	}
	if err := in.client.ZRem(ctx, inboxKey(userID), members...).Err(); err != nil {
		return fmt.Errorf("remove blogs from inbox of user %d: %w", userID, err)
	}
	return nil
}

// Page implements follows.Inboxes with ZREVRANGEBYSCORE max -inf WITHSCORES LIMIT.
func (in *Inboxes) Page(ctx context.Context, userID int64, max *int64, offset, limit int) ([]follows.FeedEntry, error) {
	if limit <= 0 {
		return nil, nil
	}
	top := "+inf"
	if max != nil {
		top = strconv.FormatInt(*max, 10)
	}
	zs, err := in.client.ZRevRangeByScoreWithScores(ctx, inboxKey(userID), &goredis.ZRangeBy{
		Max: top, Min: "-inf", Offset: int64(offset), Count: int64(limit),
	}).Result()
	if err != nil {
		return nil, fmt.Errorf("read inbox of user %d: %w", userID, err)
	}
	out := make([]follows.FeedEntry, 0, len(zs))
	for _, z := range zs {
		s, _ := z.Member.(string)
		id, err := strconv.ParseInt(s, 10, 64)
		if err != nil || math.IsNaN(z.Score) {
			continue
		}
		out = append(out, follows.FeedEntry{BlogID: id, Score: int64(z.Score)})
	}
	return out, nil
}
