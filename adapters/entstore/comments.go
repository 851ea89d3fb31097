package entstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/domain"
)

// Comments keeps comments on blogs. Creating and deleting comments is one transaction
// each that also moves the blog's comment count (and a top-level comment's reply count)
// under the row locks of the rows it changes, so concurrent comments and deletes leave
// the counts exact.
type Comments struct{ o *rawSQL }

var _ notes.Comments = (*Comments)(nil)

// Comments returns the comment store.
func (s *Store) Comments() *Comments { return &Comments{o: s.raw()} }

const commentColumns = "id, blog_id, user_id, parent_id, reply_to_id, reply_to_user_id, content, replies, created_at"

func scanComment(row rowScanner) (domain.Comment, error) {
	var c domain.Comment
	err := row.Scan(&c.ID, &c.BlogID, &c.UserID, &c.ParentID, &c.ReplyToID, &c.ReplyToUserID, &c.Content, &c.Replies, &c.CreatedAt)
	return c, err
}

// CreateComment implements notes.Comments.
func (r *Comments) CreateComment(ctx context.Context, c domain.Comment) (domain.Comment, error) {
	at := c.CreatedAt.UTC()
	if c.CreatedAt.IsZero() {
		at = time.Now().UTC()
	}
	var created domain.Comment
	err := r.o.inTx(ctx, func(tx *sql.Tx) error {
		a := &args{o: r.o}
		res, err := tx.ExecContext(ctx, "UPDATE blogs SET comments = comments + 1 WHERE id = "+a.p(c.BlogID), a.vals...)
		if err != nil {
			return fmt.Errorf("count comment of blog %d: %w", c.BlogID, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return domain.ErrNotFound
		}
		if c.ParentID > 0 {
			// The parent's row lock keeps a delete of it from missing this reply.
			b := &args{o: r.o}
			res, err := tx.ExecContext(ctx, "UPDATE comments SET replies = replies + 1 WHERE id = "+b.p(c.ParentID)+
				" AND blog_id = "+b.p(c.BlogID)+" AND parent_id = 0", b.vals...)
			if err != nil {
				return fmt.Errorf("count reply to comment %d: %w", c.ParentID, err)
			}
			if n, err := res.RowsAffected(); err != nil {
				return err
			} else if n == 0 {
				return domain.ErrNotFound
			}
		}
		b := &args{o: r.o}
		q := "INSERT INTO comments (blog_id, user_id, parent_id, reply_to_id, reply_to_user_id, content, replies, created_at, updated_at) VALUES (" +
			strings.Join([]string{b.p(c.BlogID), b.p(c.UserID), b.p(c.ParentID), b.p(c.ReplyToID), b.p(c.ReplyToUserID), b.p(c.Content), "0", b.p(at), b.p(at)}, ", ") +
			") RETURNING " + commentColumns
		created, err = scanComment(tx.QueryRowContext(ctx, q, b.vals...))
		return err
	})
	if errors.Is(err, domain.ErrNotFound) {
		return domain.Comment{}, domain.ErrNotFound
	}
	if err != nil {
		return domain.Comment{}, fmt.Errorf("create comment on blog %d: %w", c.BlogID, err)
	}
	return created, nil
}

// Comment implements notes.Comments.
func (r *Comments) Comment(ctx context.Context, id int64) (domain.Comment, error) {
	a := &args{o: r.o}
	c, err := scanComment(r.o.db.QueryRowContext(ctx, "SELECT "+commentColumns+" FROM comments WHERE id = "+a.p(id), a.vals...))
	if errors.Is(err, sql.ErrNoRows) {
		return domain.Comment{}, domain.ErrNotFound
	}
	if err != nil {
		return domain.Comment{}, fmt.Errorf("load comment %d: %w", id, err)
	}
	return c, nil
}

// CommentsByIDs implements notes.Comments.
func (r *Comments) CommentsByIDs(ctx context.Context, ids []int64) ([]domain.Comment, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	a := &args{o: r.o}
	ph := make([]string, len(ids))
	for i, id := range ids {
		ph[i] = a.p(id)
	}
	return r.list(ctx, "SELECT "+commentColumns+" FROM comments WHERE id IN ("+strings.Join(ph, ", ")+")", a.vals)
}

// DeleteComment implements notes.Comments.
func (r *Comments) DeleteComment(ctx context.Context, id int64) (int, error) {
	var deleted int
	err := r.o.inTx(ctx, func(tx *sql.Tx) error {
		deleted = 0
		a := &args{o: r.o}
		// Locking the comment first waits for replies being added to it; the DELETE
		// below then sees them.
		var blogID, parentID int64
		err := tx.QueryRowContext(ctx, "SELECT blog_id, parent_id FROM comments WHERE id = "+a.p(id)+r.o.forUpdate(), a.vals...).
			Scan(&blogID, &parentID)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		b := &args{o: r.o}
		res, err := tx.ExecContext(ctx, "DELETE FROM comments WHERE id = "+b.p(id)+" OR parent_id = "+b.p(id), b.vals...)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		deleted = int(n)
		c := &args{o: r.o}
		if _, err := tx.ExecContext(ctx, "UPDATE blogs SET comments = comments - "+c.p(n)+" WHERE id = "+c.p(blogID), c.vals...); err != nil {
			return err
		}
		if parentID > 0 {
			d := &args{o: r.o}
			if _, err := tx.ExecContext(ctx, "UPDATE comments SET replies = replies - 1 WHERE id = "+d.p(parentID), d.vals...); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("delete comment %d: %w", id, err)
	}
	return deleted, nil
}

// Comments implements notes.Comments.
func (r *Comments) Comments(ctx context.Context, blogID, parentID int64, newestFirst bool, after int64, limit int) ([]domain.Comment, error) {
	a := &args{o: r.o}
	q := "SELECT " + commentColumns + " FROM comments WHERE blog_id = " + a.p(blogID) + " AND parent_id = " + a.p(parentID)
	order := " ORDER BY id"
	switch {
	case newestFirst && after > 0:
		q += " AND id < " + a.p(after)
		order += " DESC"
	case newestFirst:
		order += " DESC"
	case after > 0:
		q += " AND id > " + a.p(after)
	}
	return r.list(ctx, q+order+" LIMIT "+a.p(limit), a.vals)
}

// FirstComments implements notes.Comments.
func (r *Comments) FirstComments(ctx context.Context, blogIDs []int64, newestFirst bool, limit int) (map[int64][]domain.Comment, error) {
	return r.firsts(ctx, "blog_id", "parent_id = 0 AND blog_id", blogIDs, newestFirst, limit)
}

// FirstReplies implements notes.Comments.
func (r *Comments) FirstReplies(ctx context.Context, parentIDs []int64, limit int) (map[int64][]domain.Comment, error) {
	return r.firsts(ctx, "parent_id", "parent_id", parentIDs, false, limit)
}

// firsts lists the first limit comments of each group (by groupBy) whose where column
// is one of ids, in one statement: a window numbers each group's rows.
func (r *Comments) firsts(ctx context.Context, groupBy, where string, ids []int64, newestFirst bool, limit int) (map[int64][]domain.Comment, error) {
	out := make(map[int64][]domain.Comment, len(ids))
	if len(ids) == 0 || limit <= 0 {
		return out, nil
	}
	dir := "ASC"
	if newestFirst {
		dir = "DESC"
	}
	a := &args{o: r.o}
	ph := make([]string, len(ids))
	for i, id := range ids {
		ph[i] = a.p(id)
	}
	q := "SELECT " + commentColumns + " FROM (SELECT " + commentColumns + ", ROW_NUMBER() OVER (PARTITION BY " + groupBy +
		" ORDER BY id " + dir + ") AS rn FROM comments WHERE " + where + " IN (" + strings.Join(ph, ", ") + ")) numbered" +
		" WHERE rn <= " + a.p(limit) + " ORDER BY " + groupBy + ", id " + dir
	list, err := r.list(ctx, q, a.vals)
	if err != nil {
		return nil, err
	}
	for _, c := range list {
		key := c.BlogID
		if groupBy == "parent_id" {
			key = c.ParentID
		}
		out[key] = append(out[key], c)
	}
	return out, nil
}

func (r *Comments) list(ctx context.Context, q string, vals []any) ([]domain.Comment, error) {
	rows, err := r.o.db.QueryContext(ctx, q, vals...)
	if err != nil {
		return nil, fmt.Errorf("list comments: %w", err)
	}
	defer rows.Close()
	var out []domain.Comment
	for rows.Next() {
		c, err := scanComment(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}
