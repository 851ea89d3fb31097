package media

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/dealspot/dealspot/internal/domain"
)

// Images tells which image paths of this site exist, and deletes uploads.
type Images struct {
	store   Store
	uploads Uploads
	shipped Shipped
}

// ImagesDeps are what Images needs; Shipped may be nil (no images come with the
// server).
type ImagesDeps struct {
	Store   Store
	Uploads Uploads
	Shipped Shipped
}

// NewImages returns the use case over d.
func NewImages(d ImagesDeps) (*Images, error) {
	if d.Store == nil || d.Uploads == nil {
		return nil, errors.New("media images: missing store or uploads")
	}
	return &Images{store: d.Store, uploads: d.Uploads, shipped: d.Shipped}, nil
}

// Exists reports whether path, a path of this site, is an image it serves: one
// uploaded and not deleted, or one that comes with the server. Errors are
// infrastructure failures only.
func (i *Images) Exists(ctx context.Context, path string) (bool, error) {
	if i.shipped != nil && i.shipped.Has(path) {
		return true, nil
	}
	ok, err := i.store.Has(ctx, path)
	if err != nil {
		return false, fmt.Errorf("look up image: %w", err)
	}
	return ok, nil
}

// Delete deletes the uploaded image at url, for its uploader or an ADMIN, when nothing
// shows it; false when no upload is recorded at url (deleted already, or never
// uploaded). Errors: UNAUTHENTICATED; BAD_USER_INPUT for an empty url; FORBIDDEN for
// someone else's upload; CONFLICT while a note's images, a user's icon or a shop's
// photos name it.
func (i *Images) Delete(ctx context.Context, a domain.Actor, url string) (bool, error) {
	if !a.Authenticated() {
		return false, domain.Errorf(domain.CodeUnauthenticated, "log in first")
	}
	url = strings.TrimSpace(url)
	if url == "" {
		return false, domain.Errorf(domain.CodeBadUserInput, "url: the url uploadImage answered")
	}
	return i.uploads.DeleteUpload(ctx, url, func(u domain.Upload, inUse bool) error {
		if u.UserID != a.UserID && a.Role != domain.RoleAdmin {
			return domain.Errorf(domain.CodeForbidden, "only its uploader deletes an image")
		}
		if inUse {
			return domain.Errorf(domain.CodeConflict, "the image is in use: remove it from the notes, profile or shop showing it first")
		}
		// Deleted inside the record's transaction: if the file cannot go, the record
		// stays, and a retry finds both.
		if _, err := i.store.Delete(ctx, url); err != nil {
			return fmt.Errorf("delete stored image: %w", err)
		}
		return nil
	})
}
