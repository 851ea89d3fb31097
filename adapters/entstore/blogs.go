package entstore

import (
	"context"
	"entgo.io/ent/dialect"
	"fmt"
	"strconv"
	"strings"

	entsql "entgo.io/ent/dialect/sql"

	"github.com/dealspot/dealspot/ent"
	"github.com/dealspot/dealspot/ent/blog"
	"github.com/dealspot/dealspot/ent/bloglike"
	"github.com/dealspot/dealspot/ent/comment"
	"github.com/dealspot/dealspot/internal/app/social"
	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/domain"
)

// Blogs reads and writes blogs.
type Blogs struct {
	client  *ent.Client
	dialect string
}

var _ social.Blogs = (*Blogs)(nil)

// Blogs returns the blog repository.
func (s *Store) Blogs() *Blogs { return &Blogs{client: s.client, dialect: s.dialect} }

// CreateBlog stores a new blog and returns it with its id. Images are stored as one
// comma-separated column, so an image path must not contain a comma (BAD_USER_INPUT).
// A zero CreatedAt means now.
func (r *Blogs) CreateBlog(ctx context.Context, b domain.Blog) (domain.Blog, error) {
	for _, img := range b.Images {
		if img == "" || strings.Contains(img, ",") {
			return domain.Blog{}, domain.Errorf(domain.CodeBadUserInput, "an image path must be non-empty and hold no comma")
		}
	}
	if b.Rating < 0 || b.Rating > 5 {
		return domain.Blog{}, domain.Errorf(domain.CodeBadUserInput, "rating: 1 to 5 stars, or none")
	}
	var row *ent.Blog
	err := WithTx(ctx, r.client, func(tx *ent.Tx) error {
		c := tx.Blog.Create().
			SetShopID(b.ShopID).
			SetUserID(b.UserID).
			SetTitle(b.Title).
			SetContent(b.Content).
			SetImages(strings.Join(b.Images, ",")).
			SetLiked(b.Liked).
			SetComments(b.Comments).
			SetRating(b.Rating)
		if !b.CreatedAt.IsZero() {
			c.SetCreatedAt(b.CreatedAt).SetUpdatedAt(b.CreatedAt)
		}
		var err error
		if row, err = c.Save(ctx); err != nil {
			return translate(err, "blog", "", "")
		}
		return r.review(ctx, tx, b.ShopID, 1, b.Rating, 0)
	})
	if err != nil {
		return domain.Blog{}, fmt.Errorf("create blog: %w", err)
	}
	return toBlog(row), nil
}

// Blog returns one blog, or domain.ErrNotFound.
func (r *Blogs) Blog(ctx context.Context, id int64) (domain.Blog, error) {
	row, err := r.client.Blog.Get(ctx, id)
	if err != nil {
		return domain.Blog{}, fmt.Errorf("load blog %d: %w", id, notFound(err, "blog"))
	}
	return toBlog(row), nil
}

// BlogsByIDs returns the blogs with those ids in the order of ids, leaving out unknown
// ones.
func (r *Blogs) BlogsByIDs(ctx context.Context, ids []int64) ([]domain.Blog, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	rows, err := r.client.Blog.Query().Where(blog.IDIn(ids...)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("load blogs by ids: %w", err)
	}
	byID := make(map[int64]*ent.Blog, len(rows))
	for _, b := range rows {
		byID[b.ID] = b
	}
	out := make([]domain.Blog, 0, len(rows))
	for _, id := range ids {
		if b, ok := byID[id]; ok {
			out = append(out, toBlog(b))
		}
	}
	return out, nil
}

// BlogsOfUser returns up to limit blogs of a user with id < before (0: from the
// newest), newest first.
func (r *Blogs) BlogsOfUser(ctx context.Context, userID, before int64, limit int) ([]domain.Blog, error) {
	q := r.client.Blog.Query().Where(blog.UserID(userID))
	if before > 0 {
		q.Where(blog.IDLT(before))
	}
	rows, err := q.Order(blog.ByID(entsql.OrderDesc())).Limit(limit).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list blogs of user %d: %w", userID, err)
	}
	return toBlogs(rows), nil
}

// BlogsOfShop implements social.Blogs.
func (r *Blogs) BlogsOfShop(ctx context.Context, shopID, before int64, limit int) ([]domain.Blog, error) {
	q := r.client.Blog.Query().Where(blog.ShopID(shopID))
	if before > 0 {
		q.Where(blog.IDLT(before))
	}
	rows, err := q.Order(blog.ByID(entsql.OrderDesc())).Limit(limit).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list blogs of shop %d: %w", shopID, err)
	}
	return toBlogs(rows), nil
}

// BlogStamps returns the ids and times of a user's newest limit blogs, newest first.
func (r *Blogs) BlogStamps(ctx context.Context, userID int64, limit int) ([]domain.BlogStamp, error) {
	rows, err := r.client.Blog.Query().
		Where(blog.UserID(userID)).
		Order(blog.ByID(entsql.OrderDesc())).
		Limit(limit).
		Select(blog.FieldID, blog.FieldCreatedAt).
		All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list blog times of user %d: %w", userID, err)
	}
	out := make([]domain.BlogStamp, len(rows))
	for i, row := range rows {
		out[i] = domain.BlogStamp{ID: row.ID, CreatedAt: row.CreatedAt}
	}
	return out, nil
}

// HotBlogs returns up to limit blogs ordered by likes, then id, both descending,
// strictly after the position after (nil: from the top).
func (r *Blogs) HotBlogs(ctx context.Context, after *notes.HotPosition, limit int) ([]domain.Blog, error) {
	q := r.client.Blog.Query()
	if after != nil {
		q.Where(blog.Or(
			blog.LikedLT(after.Liked),
			blog.And(blog.Liked(after.Liked), blog.IDLT(after.ID)),
		))
	}
	rows, err := q.Order(blog.ByLiked(entsql.OrderDesc()), blog.ByID(entsql.OrderDesc())).Limit(limit).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list hot blogs: %w", err)
	}
	return toBlogs(rows), nil
}

// SetLiked stores a blog's like count as of the like change numbered seq, unless a
// change numbered seq or later is stored already (one conditional UPDATE, so concurrent
// writers cannot go back in time). It reports whether it wrote; false also for an
// unknown blog.
func (r *Blogs) SetLiked(ctx context.Context, blogID int64, count int, seq int64) (bool, error) {
	if count < 0 {
		return false, domain.Errorf(domain.CodeBadUserInput, "a like count cannot be negative")
	}
	n, err := r.client.Blog.Update().
		Where(blog.ID(blogID), blog.LikedSeqLT(seq)).
		SetLiked(count).
		SetLikedSeq(seq).
		Save(ctx)
	if err != nil {
		return false, fmt.Errorf("store like count of blog %d: %w", blogID, translate(err, "blog", "", ""))
	}
	return n > 0, nil
}

func toBlogs(rows []*ent.Blog) []domain.Blog {
	out := make([]domain.Blog, len(rows))
	for i, b := range rows {
		out[i] = toBlog(b)
	}
	return out
}

func toBlog(b *ent.Blog) domain.Blog {
	var images []string
	if b.Images != "" {
		images = strings.Split(b.Images, ",")
	}
	return domain.Blog{
		ID:        b.ID,
		ShopID:    b.ShopID,
		UserID:    b.UserID,
		Title:     b.Title,
		Content:   b.Content,
		Images:    images,
		Liked:     b.Liked,
		Comments:  b.Comments,
		Rating:    b.Rating,
		CreatedAt: b.CreatedAt,
		UpdatedAt: b.UpdatedAt,
	}
}

// UpdateBlog implements social.Blogs: title, content and images change, in one
// transaction through update, which sees the blog as stored.
func (r *Blogs) UpdateBlog(ctx context.Context, id int64, update func(*domain.Blog) error) (domain.Blog, error) {
	var out domain.Blog
	err := WithTx(ctx, r.client, func(tx *ent.Tx) error {
		q := tx.Blog.Query().Where(blog.ID(id))
		if r.dialect == dialect.Postgres { // SQLite's transactions hold the whole database
			q.ForUpdate()
		}
		row, err := q.Only(ctx)
		if err != nil {
			return notFound(err, "blog")
		}
		b := toBlog(row)
		if err := update(&b); err != nil {
			return err
		}
		for _, img := range b.Images {
			if img == "" || strings.Contains(img, ",") {
				return domain.Errorf(domain.CodeBadUserInput, "an image path must be non-empty and hold no comma")
			}
		}
		if b.Rating < 0 || b.Rating > 5 {
			return domain.Errorf(domain.CodeBadUserInput, "rating: 1 to 5 stars, or none")
		}
		old := row.Rating
		row, err = tx.Blog.UpdateOneID(id).SetTitle(b.Title).SetContent(b.Content).SetImages(strings.Join(b.Images, ",")).
			SetRating(b.Rating).Save(ctx)
		if err != nil {
			return translate(err, "blog", "", "")
		}
		out = toBlog(row)
		if old == b.Rating {
			return nil
		}
		return r.review(ctx, tx, row.ShopID, 0, b.Rating, old)
	})
	if err != nil {
		return domain.Blog{}, fmt.Errorf("update blog %d: %w", id, err)
	}
	return out, nil
}

// DeleteBlog implements social.Blogs: the blog, its comments and its likes go in one
// transaction; false when it was gone.
func (r *Blogs) DeleteBlog(ctx context.Context, id int64) (bool, error) {
	var deleted bool
	err := WithTx(ctx, r.client, func(tx *ent.Tx) error {
		q := tx.Blog.Query().Where(blog.ID(id))
		if r.dialect == dialect.Postgres {
			q.ForUpdate()
		}
		row, err := q.Only(ctx)
		if ent.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		n, err := tx.Blog.Delete().Where(blog.ID(id)).Exec(ctx)
		if err != nil || n == 0 {
			return err
		}
		deleted = true
		if err := r.review(ctx, tx, row.ShopID, -1, 0, row.Rating); err != nil {
			return err
		}
		if _, err := tx.Comment.Delete().Where(comment.BlogID(id)).Exec(ctx); err != nil {
			return err
		}
		_, err = tx.BlogLike.Delete().Where(bloglike.BlogID(id)).Exec(ctx)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("delete blog %d: %w", id, err)
	}
	return deleted, nil
}

// review moves a shop's review aggregates in tx: reviews more reviews, the rating
// added replaces the rating removed (0: none), and the score follows — one UPDATE, which
// reads the row's current values under its lock, so concurrent notes never lose one.
// A shop that is gone is left alone.
func (r *Blogs) review(ctx context.Context, tx *ent.Tx, shopID int64, reviews, added, removed int) error {
	ds := int64(added - removed)
	dc := rated(added) - rated(removed)
	if reviews == 0 && ds == 0 && dc == 0 {
		return nil
	}
	ph := func(i int) string {
		if r.dialect == dialect.Postgres {
			return "$" + strconv.Itoa(i)
		}
		return "?"
	}
	// SQLite's placeholders are positional: every use takes its own argument.
	q := "UPDATE shops SET comments = comments + " + ph(1) + ", rating_sum = rating_sum + " + ph(2) +
		", rating_count = rating_count + " + ph(3) +
		", score = CASE WHEN rating_count + " + ph(4) + " > 0 THEN ((rating_sum + " + ph(5) + ") * 10 + (rating_count + " + ph(6) +
		") / 2) / (rating_count + " + ph(7) + ") ELSE 0 END WHERE id = " + ph(8)
	if _, err := tx.ExecContext(ctx, q, reviews, ds, dc, dc, ds, dc, dc, shopID); err != nil {
		return fmt.Errorf("count review of shop %d: %w", shopID, err)
	}
	return nil
}

func rated(stars int) int {
	if stars > 0 {
		return 1
	}
	return 0
}

// FirstBlogs implements social.Blogs: the newest limit blogs of each of ids, where ids
// are shop ids (byShop) or author ids, in one statement — a window numbers each group's
// rows, newest first.
func (r *Blogs) FirstBlogs(ctx context.Context, byShop bool, ids []int64, limit int) (map[int64][]domain.Blog, error) {
	out := make(map[int64][]domain.Blog, len(ids))
	if len(ids) == 0 || limit <= 0 {
		return out, nil
	}
	group := "user_id"
	if byShop {
		group = "shop_id"
	}
	ph := func(i int) string {
		if r.dialect == dialect.Postgres {
			return "$" + strconv.Itoa(i)
		}
		return "?"
	}
	args := make([]any, 0, len(ids)+1)
	in := make([]string, len(ids))
	for i, id := range ids {
		args = append(args, id)
		in[i] = ph(i + 1)
	}
	args = append(args, limit)
	const cols = "id, shop_id, user_id, title, images, content, liked, comments, rating, created_at, updated_at"
	q := "SELECT " + cols + " FROM (SELECT " + cols + ", ROW_NUMBER() OVER (PARTITION BY " + group + " ORDER BY id DESC) AS rn" +
		" FROM blogs WHERE " + group + " IN (" + strings.Join(in, ", ") + ")) numbered WHERE rn <= " + ph(len(ids)+1) +
		" ORDER BY " + group + ", id DESC"
	rows, err := r.client.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("first blogs of %d %ss: %w", len(ids), group, err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			b      domain.Blog
			images string
		)
		if err := rows.Scan(&b.ID, &b.ShopID, &b.UserID, &b.Title, &images, &b.Content, &b.Liked, &b.Comments, &b.Rating,
			&b.CreatedAt, &b.UpdatedAt); err != nil {
			return nil, err
		}
		if images != "" {
			b.Images = strings.Split(images, ",")
		}
		key := b.UserID
		if byShop {
			key = b.ShopID
		}
		out[key] = append(out[key], b)
	}
	return out, rows.Err()
}
