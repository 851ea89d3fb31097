package entstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"entgo.io/ent/dialect"

	"github.com/dealspot/dealspot/ent"
	"github.com/dealspot/dealspot/ent/blog"
	"github.com/dealspot/dealspot/ent/bloglike"
	"github.com/dealspot/dealspot/internal/app/social/likes"
	"github.com/dealspot/dealspot/internal/domain"
)

// Likes keeps who likes which blog (table blog_likes) together with each blog's count
// (blogs.liked) and the version of its likes (blogs.liked_seq), which the Redis cache
// uses to apply changes in order.
type Likes struct {
	client  *ent.Client
	dialect string
}

var _ likes.LikeStore = (*Likes)(nil)

// Likes returns the like repository.
func (s *Store) Likes() *Likes { return &Likes{client: s.client, dialect: s.dialect} }

// SetLike implements likes.LikeStore. One transaction locks the blog's row (PostgreSQL:
// SELECT … FOR UPDATE; SQLite: the database's write lock, taken at BEGIN IMMEDIATE), so
// the changes of one blog take turns: it inserts or deletes the user's like unless it is
// as asked already and, when it changed, counts the blog's likes and stores the count
// with the next version.
func (r *Likes) SetLike(ctx context.Context, blogID, userID int64, like bool, at time.Time) (likes.LikeChange, error) {
	if userID <= 0 {
		return likes.LikeChange{}, domain.Errorf(domain.CodeBadUserInput, "a like needs a user")
	}
	var c likes.LikeChange
	err := WithTx(ctx, r.client, func(tx *ent.Tx) error {
		c = likes.LikeChange{Liked: like}
		q := tx.Blog.Query().Where(blog.ID(blogID)).Select(blog.FieldID, blog.FieldLikedSeq, blog.FieldLiked)
		if r.dialect == dialect.Postgres {
			q.ForUpdate()
		}
		b, err := q.Only(ctx)
		if err != nil {
			return notFound(err, "blog")
		}
		// The blog's row is locked: no other change of its likes runs in between.
		liked, err := tx.BlogLike.Query().Where(bloglike.BlogID(blogID), bloglike.UserID(userID)).Exist(ctx)
		if err != nil {
			return fmt.Errorf("read like: %w", err)
		}
		switch {
		case liked == like:
			c.Count, c.Version = b.Liked, b.LikedSeq
			return nil
		case like:
			if err := tx.BlogLike.Create().SetBlogID(blogID).SetUserID(userID).SetLikedAt(at).Exec(ctx); err != nil {
				return fmt.Errorf("store like: %w", err)
			}
			c.At = at
		default:
			if _, err := tx.BlogLike.Delete().Where(bloglike.BlogID(blogID), bloglike.UserID(userID)).Exec(ctx); err != nil {
				return fmt.Errorf("take back like: %w", err)
			}
		}
		c.Changed = true
		count, err := tx.BlogLike.Query().Where(bloglike.BlogID(blogID)).Count(ctx)
		if err != nil {
			return fmt.Errorf("count likes: %w", err)
		}
		c.Count, c.Version = count, b.LikedSeq+1
		if err := tx.Blog.UpdateOneID(blogID).SetLiked(count).SetLikedSeq(c.Version).Exec(ctx); err != nil {
			return fmt.Errorf("store like count: %w", err)
		}
		return nil
	})
	if err != nil {
		return likes.LikeChange{}, fmt.Errorf("set like of blog %d: %w", blogID, err)
	}
	return c, nil
}

// importBatch is how many likes one INSERT of Import carries.
const importBatch = 1000

// Import implements likes.LikeStore in one transaction that locks the blog's row like
// Toggle: INSERT … ON CONFLICT DO NOTHING in batches, then the count and the next
// version.
func (r *Likes) Import(ctx context.Context, blogID int64, likes []likes.Like) (int, error) {
	var added int
	err := WithTx(ctx, r.client, func(tx *ent.Tx) error {
		q := tx.Blog.Query().Where(blog.ID(blogID)).Select(blog.FieldID, blog.FieldLikedSeq)
		if r.dialect == dialect.Postgres {
			q.ForUpdate()
		}
		b, err := q.Only(ctx)
		if err != nil {
			return notFound(err, "blog")
		}
		before, err := tx.BlogLike.Query().Where(bloglike.BlogID(blogID)).Count(ctx)
		if err != nil {
			return fmt.Errorf("count likes: %w", err)
		}
		for start := 0; start < len(likes); start += importBatch {
			batch := likes[start:min(start+importBatch, len(likes))]
			creates := make([]*ent.BlogLikeCreate, 0, len(batch))
			for _, l := range batch {
				if l.UserID > 0 {
					creates = append(creates, tx.BlogLike.Create().SetBlogID(blogID).SetUserID(l.UserID).SetLikedAt(l.At))
				}
			}
			if len(creates) == 0 {
				continue
			}
			err := tx.BlogLike.CreateBulk(creates...).
				OnConflictColumns(bloglike.FieldBlogID, bloglike.FieldUserID).
				DoNothing().
				Exec(ctx)
			if err != nil {
				return fmt.Errorf("store likes: %w", err)
			}
		}
		count, err := tx.BlogLike.Query().Where(bloglike.BlogID(blogID)).Count(ctx)
		if err != nil {
			return fmt.Errorf("count likes: %w", err)
		}
		if added = count - before; added == 0 {
			return nil
		}
		return tx.Blog.UpdateOneID(blogID).SetLiked(count).SetLikedSeq(b.LikedSeq + 1).Exec(ctx)
	})
	if err != nil {
		return 0, fmt.Errorf("import likes of blog %d: %w", blogID, err)
	}
	return added, nil
}

// BlogLikes implements likes.LikeStore: the version and the likes are read in one
// transaction (REPEATABLE READ on PostgreSQL; SQLite's transactions see one snapshot).
// Errors: domain.ErrNotFound for an unknown blog.
func (r *Likes) BlogLikes(ctx context.Context, blogID int64) (likes.BlogLikes, error) {
	var opts *sql.TxOptions
	if r.dialect == dialect.Postgres {
		opts = &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true}
	}
	tx, err := r.client.BeginTx(ctx, opts)
	if err != nil {
		return likes.BlogLikes{}, fmt.Errorf("begin transaction: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	b, err := tx.Blog.Query().Where(blog.ID(blogID)).Select(blog.FieldID, blog.FieldLikedSeq).Only(ctx)
	if err != nil {
		return likes.BlogLikes{}, fmt.Errorf("load likes of blog %d: %w", blogID, notFound(err, "blog"))
	}
	rows, err := tx.BlogLike.Query().
		Where(bloglike.BlogID(blogID)).
		Order(bloglike.ByLikedAt(), bloglike.ByUserID()).
		All(ctx)
	if err != nil {
		return likes.BlogLikes{}, fmt.Errorf("load likes of blog %d: %w", blogID, err)
	}
	out := likes.BlogLikes{Version: b.LikedSeq, Likes: make([]likes.Like, len(rows))}
	for i, l := range rows {
		out.Likes[i] = likes.Like{UserID: l.UserID, At: l.LikedAt}
	}
	if err := tx.Commit(); err != nil && !errors.Is(err, sql.ErrTxDone) {
		return likes.BlogLikes{}, fmt.Errorf("load likes of blog %d: %w", blogID, err)
	}
	return out, nil
}
