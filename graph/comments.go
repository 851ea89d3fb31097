package graph

import (
	"context"

	"github.com/vikstrous/dataloadgen"

	"github.com/dealspot/dealspot/graph/model"
	"github.com/dealspot/dealspot/internal/app"
	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/domain"
)

const commentCursor = "cmt"

// firstPageKey asks for the first page of a parent's comments (a blog's top-level
// comments, or a comment's replies): pages of one size and order are fetched together.
type firstPageKey struct {
	parentID    int64
	first       int
	newestFirst bool
}

// firstPages is a loader of first pages: fetch reads the first pages of many parents
// of one size and order with one call (first+1 rows each, so a page knows whether more
// follow).
func firstPages(fetch func(ctx context.Context, parentIDs []int64, newestFirst bool, first int) (map[int64][]domain.Comment, error),
	opts []dataloadgen.Option) *dataloadgen.Loader[firstPageKey, []domain.Comment] {
	return dataloadgen.NewLoader(func(ctx context.Context, keys []firstPageKey) ([][]domain.Comment, []error) {
		type group struct {
			first       int
			newestFirst bool
		}
		ids := map[group][]int64{}
		for _, k := range keys {
			g := group{k.first, k.newestFirst}
			ids[g] = append(ids[g], k.parentID)
		}
		pages := map[firstPageKey][]domain.Comment{}
		for g, parents := range ids {
			m, err := fetch(ctx, parents, g.newestFirst, g.first)
			if err != nil {
				return nil, []error{err}
			}
			for _, p := range parents {
				pages[firstPageKey{p, g.first, g.newestFirst}] = m[p]
			}
		}
		out := make([][]domain.Comment, len(keys))
		for i, k := range keys {
			out[i] = pages[k]
		}
		return out, nil
	}, opts...)
}

func commentLoaders(a *app.Application, opts []dataloadgen.Option) (blogComments, replies *dataloadgen.Loader[firstPageKey, []domain.Comment]) {
	blogComments = firstPages(a.Queries.Comments.FirstComments, opts)
	replies = firstPages(func(ctx context.Context, parentIDs []int64, _ bool, first int) (map[int64][]domain.Comment, error) {
		return a.Queries.Comments.FirstReplies(ctx, parentIDs, first)
	}, opts)
	return blogComments, replies
}

func commentToModel(c domain.Comment) *model.Comment {
	out := &model.Comment{
		ID: formatID(c.ID), BlogID: formatID(c.BlogID), AuthorID: formatID(c.UserID), Content: c.Content,
		ReplyCount: c.Replies, CreatedAt: c.CreatedAt,
	}
	if c.ParentID > 0 {
		id := formatID(c.ParentID)
		out.ParentID = &id
	}
	if c.ReplyToID > 0 {
		id := formatID(c.ReplyToID)
		out.ReplyToID = &id
	}
	if c.ReplyToUserID > 0 {
		id := formatID(c.ReplyToUserID)
		out.ReplyToUserID = &id
	}
	return out
}

// commentEdge is the comment with id (nil: none), through the operation's loader, so
// the comments a page of replies answers are read together; nil when it is gone.
func (r *Resolver) commentEdge(ctx context.Context, id *string) (*model.Comment, error) {
	if id == nil {
		return nil, nil
	}
	cid, err := parseID("id", *id)
	if err != nil {
		return nil, err
	}
	c, err := r.load(ctx).comments.Load(ctx, cid)
	if err != nil || c == nil {
		return nil, err
	}
	return commentToModel(*c), nil
}

func commentConnection(page notes.CommentPage) *model.CommentConnection {
	es, info := edges(page.Comments, page.HasNextPage,
		func(_ int, c domain.Comment) string { return encodeCursor(commentCursor, c.ID) },
		func(cur string, c domain.Comment) model.CommentEdge {
			return model.CommentEdge{Cursor: cur, Node: commentToModel(c)}
		})
	return &model.CommentConnection{Edges: es, PageInfo: info}
}

// commentsEdge pages through a blog's top-level comments (parentID 0) or a comment's
// replies. A first page comes through the operation's loaders, batched with the first
// pages of the other blogs (or comments) of the answer.
func (r *Resolver) commentsEdge(ctx context.Context, blogID, parentID int64, first *int, after *string, order *model.CommentOrder) (*model.CommentConnection, error) {
	newest := order != nil && *order == model.CommentOrderNewestFirst
	from, err := decodeCursor(commentCursor, after)
	if err != nil {
		return nil, err
	}
	if from > 0 {
		page, err := r.App.Queries.Comments.Comments(ctx, blogID, parentID, newest, deref(first), from)
		if err != nil {
			return nil, err
		}
		return commentConnection(page), nil
	}
	size, err := r.App.Queries.Comments.PageSize(deref(first))
	if err != nil {
		return nil, err
	}
	l := r.load(ctx)
	loader, key := l.blogComments, firstPageKey{blogID, size, newest}
	if parentID > 0 {
		loader, key = l.replies, firstPageKey{parentID, size, false}
	}
	list, err := loader.Load(ctx, key)
	if err != nil {
		return nil, err
	}
	page := notes.CommentPage{Comments: list}
	if len(list) > size {
		page.Comments, page.HasNextPage = list[:size], true
	}
	return commentConnection(page), nil
}
