package entstore

import (
	"context"
	"fmt"

	"entgo.io/ent/dialect"

	"github.com/dealspot/dealspot/ent"
	"github.com/dealspot/dealspot/ent/blog"
	"github.com/dealspot/dealspot/ent/shop"
	"github.com/dealspot/dealspot/ent/upload"
	"github.com/dealspot/dealspot/ent/user"
	"github.com/dealspot/dealspot/internal/app/media"
	"github.com/dealspot/dealspot/internal/domain"
)

// Uploads records who uploaded which image.
type Uploads struct {
	client  *ent.Client
	dialect string
}

var _ media.Uploads = (*Uploads)(nil)

// NewUploads returns the record of uploads in s. (A function rather than a method of
// Store, whose methods are at archcheck's cap.)
func NewUploads(s *Store) *Uploads { return &Uploads{client: s.client, dialect: s.dialect} }

// AddUpload implements media.Uploads; the unique index on url refuses a URL recorded
// already.
func (r *Uploads) AddUpload(ctx context.Context, u domain.Upload) error {
	err := r.client.Upload.Create().SetUserID(u.UserID).SetURL(u.URL).SetContentType(u.ContentType).
		SetWidth(u.Width).SetHeight(u.Height).Exec(ctx)
	if err != nil {
		return fmt.Errorf("record upload %s: %w", u.URL, err)
	}
	return nil
}

// DeleteUpload implements media.Uploads. The image is in use when a note's or a shop's
// images hold url as a part (a longer URL ending in it counts too: better kept than
// broken) or a user's icon is url.
func (r *Uploads) DeleteUpload(ctx context.Context, url string, check func(u domain.Upload, inUse bool) error) (bool, error) {
	deleted := false
	err := WithTx(ctx, r.client, func(tx *ent.Tx) error {
		q := tx.Upload.Query().Where(upload.URL(url))
		if r.dialect == dialect.Postgres { // SQLite's transactions hold the whole database
			q.ForUpdate()
		}
		row, err := q.Only(ctx)
		if ent.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("look up upload %s: %w", url, err)
		}
		inUse, err := tx.Blog.Query().Where(blog.ImagesContains(url)).Exist(ctx)
		if err == nil && !inUse {
			inUse, err = tx.User.Query().Where(user.Icon(url)).Exist(ctx)
		}
		if err == nil && !inUse {
			inUse, err = tx.Shop.Query().Where(shop.ImagesContains(url)).Exist(ctx)
		}
		if err != nil {
			return fmt.Errorf("look up the uses of %s: %w", url, err)
		}
		if err := check(toUpload(row), inUse); err != nil {
			return err
		}
		if err := tx.Upload.DeleteOneID(row.ID).Exec(ctx); err != nil {
			return fmt.Errorf("delete upload %s: %w", url, err)
		}
		deleted = true
		return nil
	})
	return deleted, err
}

// UploadsAt implements media.Uploads with one query (url is unique and indexed).
func (r *Uploads) UploadsAt(ctx context.Context, urls []string) (map[string]domain.Upload, error) {
	out := make(map[string]domain.Upload, len(urls))
	if len(urls) == 0 {
		return out, nil
	}
	rows, err := r.client.Upload.Query().Where(upload.URLIn(urls...)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("look up %d uploads: %w", len(urls), err)
	}
	for _, row := range rows {
		out[row.URL] = toUpload(row)
	}
	return out, nil
}

func toUpload(row *ent.Upload) domain.Upload {
	return domain.Upload{
		ID:     row.ID,
		UserID: row.UserID,
		Image: domain.Image{
			URL: row.URL, Width: row.Width, Height: row.Height, ContentType: row.ContentType,
		},
		CreatedAt: row.CreatedAt,
	}
}
