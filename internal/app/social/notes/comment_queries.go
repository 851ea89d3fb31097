package notes

import (
	"context"
	"fmt"

	"github.com/dealspot/dealspot/internal/app/batchread"
	"github.com/dealspot/dealspot/internal/domain"
)

// CommentPage is one page of comments.
type CommentPage struct {
	Comments    []domain.Comment
	HasNextPage bool
}

// CommentQueries read comments.
type CommentQueries struct {
	comments Comments
	pages    domain.PageLimits
}

// Comments pages through a blog's top-level comments (parentID 0) or a comment's
// replies, oldest first unless newestFirst, after the comment id after (0: from the
// start).
func (q *CommentQueries) Comments(ctx context.Context, blogID, parentID int64, newestFirst bool, first int, after int64) (CommentPage, error) {
	size, err := q.pages.Size(first)
	if err != nil {
		return CommentPage{}, err
	}
	if blogID <= 0 || parentID < 0 || after < 0 {
		return CommentPage{}, domain.Errorf(domain.CodeBadUserInput, "ids must be positive")
	}
	list, err := q.comments.Comments(ctx, blogID, parentID, newestFirst, after, size+1)
	if err != nil {
		return CommentPage{}, err
	}
	page := CommentPage{Comments: list}
	if len(list) > size {
		page.Comments, page.HasNextPage = list[:size], true
	}
	return page, nil
}

// PageSize is the size of a page asked for with first (the default for 0);
// BAD_USER_INPUT past the largest.
func (q *CommentQueries) PageSize(first int) (int, error) { return q.pages.Size(first) }

// FirstComments returns the first page (first+1 rows, so the caller can tell whether
// more follow) of each blog's top-level comments, with one query.
func (q *CommentQueries) FirstComments(ctx context.Context, blogIDs []int64, newestFirst bool, first int) (map[int64][]domain.Comment, error) {
	size, err := q.pages.Size(first)
	if err != nil {
		return nil, err
	}
	m, err := q.comments.FirstComments(ctx, batchread.UniqueIDs(blogIDs), newestFirst, size+1)
	if err != nil {
		return nil, fmt.Errorf("first comments of %d notes: %w", len(blogIDs), err)
	}
	return m, nil
}

// FirstReplies returns the first page (first+1 rows) of each comment's replies, oldest
// first, with one query.
func (q *CommentQueries) FirstReplies(ctx context.Context, parentIDs []int64, first int) (map[int64][]domain.Comment, error) {
	size, err := q.pages.Size(first)
	if err != nil {
		return nil, err
	}
	m, err := q.comments.FirstReplies(ctx, batchread.UniqueIDs(parentIDs), size+1)
	if err != nil {
		return nil, fmt.Errorf("first replies of %d comments: %w", len(parentIDs), err)
	}
	return m, nil
}

// ByIDs returns the comments with ids (unknown ones left out) with one query.
func (q *CommentQueries) ByIDs(ctx context.Context, ids []int64) (map[int64]domain.Comment, error) {
	list, err := q.comments.CommentsByIDs(ctx, batchread.UniqueIDs(ids))
	if err != nil {
		return nil, fmt.Errorf("load %d comments: %w", len(ids), err)
	}
	out := make(map[int64]domain.Comment, len(list))
	for _, c := range list {
		out[c.ID] = c
	}
	return out, nil
}
