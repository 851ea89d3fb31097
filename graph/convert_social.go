package graph

import (
	"context"
	"math"

	"github.com/dealspot/dealspot/graph/model"
	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/app/social"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/reqmeta"
)

// viewer is who reads public data: the caller when logged in, else anonymous (also when
// a presented token was refused — public fields still answer).
func viewer(ctx context.Context) auth.Principal {
	return callerFrom(ctx).principal
}

// socialViewer is the reader as the social use cases see it: a user id and the client's
// address.
func socialViewer(ctx context.Context) social.Viewer {
	return social.Viewer{UserID: viewer(ctx).UserID, ClientIP: reqmeta.From(ctx).ClientIP}
}

func blogToModel(v social.BlogView, p auth.Principal) *model.Blog {
	images := v.Blog.Images
	if images == nil {
		images = []string{}
	}
	out := &model.Blog{
		ID:         formatID(v.Blog.ID),
		Title:      v.Blog.Title,
		Content:    v.Blog.Content,
		Images:     images,
		Author:     userToModel(v.Author, p),
		LikedCount: v.Blog.Liked,
		LikedByMe:  v.LikedByMe,
		CreatedAt:  v.Blog.CreatedAt,
	}
	if v.Shop != nil {
		out.Shop = shopToModel(*v.Shop)
	}
	return out
}

func usersToModel(users []domain.User, p auth.Principal) []model.User {
	out := make([]model.User, len(users))
	for i, u := range users {
		out[i] = *userToModel(u, p)
	}
	return out
}

// Cursor kinds of the social lists.
const (
	hotCursor      = "hot"
	userBlogCursor = "ublog"
	feedCursor     = "feed"
)

// encodePair packs a cursor of two numbers.
func encodePair(kind string, a, b int64) string {
	return domain.EncodeCursor(kind, domain.FormatCursorInt(a), domain.FormatCursorInt(b))
}

// decodePair reads a cursor of two numbers within [lo, hi] each; ok is false for nil or
// empty.
func decodePair(kind string, raw *string, lo, hi [2]int64) (a, b int64, ok bool, err error) {
	c, ok, err := domain.ParseCursor(kind, deref(raw), 2)
	if err != nil || !ok {
		return 0, 0, false, err
	}
	a, err1 := c.Int(0, lo[0], hi[0])
	b, err2 := c.Int(1, lo[1], hi[1])
	if err1 != nil || err2 != nil {
		return 0, 0, false, domain.BadCursor()
	}
	return a, b, true, nil
}

// decodeHotCursor reads a hot-blogs position: likes (an int32 in the store) and blog id.
func decodeHotCursor(raw *string) (*social.HotPosition, error) {
	liked, id, ok, err := decodePair(hotCursor, raw, [2]int64{0, 1}, [2]int64{math.MaxInt32, math.MaxInt64})
	if err != nil || !ok {
		return nil, err
	}
	return &social.HotPosition{Liked: int(liked), ID: id}, nil
}

// decodeFeedCursor reads a feed position: the last score (ms; exact in a float64) and
// how many entries of that score were seen (the app bounds it by the inbox size).
func decodeFeedCursor(raw *string) (*social.FeedCursor, error) {
	max, offset, ok, err := decodePair(feedCursor, raw, [2]int64{0, 1}, [2]int64{1 << 53, math.MaxInt32})
	if err != nil || !ok {
		return nil, err
	}
	return &social.FeedCursor{Max: max, Offset: int(offset)}, nil
}

// blogConnection maps a page of blogs; cursor gives each blog's cursor.
func blogConnection(page social.BlogPage, p auth.Principal, cursor func(domain.Blog) string) *model.BlogConnection {
	conn := &model.BlogConnection{Edges: make([]model.BlogEdge, 0, len(page.Blogs)), PageInfo: &model.PageInfo{HasNextPage: page.HasNextPage}}
	for _, v := range page.Blogs {
		conn.Edges = append(conn.Edges, model.BlogEdge{Cursor: cursor(v.Blog), Node: blogToModel(v, p)})
	}
	if n := len(conn.Edges); n > 0 {
		conn.PageInfo.EndCursor = &conn.Edges[n-1].Cursor
	}
	return conn
}

func hotBlogCursor(b domain.Blog) string { return encodePair(hotCursor, int64(b.Liked), b.ID) }

func userBlogCursorOf(b domain.Blog) string { return encodeCursor(userBlogCursor, b.ID) }

func feedConnection(page social.FeedPage, p auth.Principal) *model.FeedConnection {
	conn := &model.FeedConnection{Edges: make([]model.FeedEdge, 0, len(page.Items)), PageInfo: &model.PageInfo{HasNextPage: page.HasNextPage}}
	for _, it := range page.Items {
		conn.Edges = append(conn.Edges, model.FeedEdge{
			Cursor: encodePair(feedCursor, it.Cursor.Max, int64(it.Cursor.Offset)),
			Node:   blogToModel(it.Blog, p),
		})
	}
	if page.End != nil {
		end := encodePair(feedCursor, page.End.Max, int64(page.End.Offset))
		conn.PageInfo.EndCursor = &end
	}
	return conn
}

func signInToModel(s social.SignInStatus) *model.SignInStatus {
	return &model.SignInStatus{Month: s.Month, SignedDays: s.SignedDays, ConsecutiveDays: s.ConsecutiveDays}
}
