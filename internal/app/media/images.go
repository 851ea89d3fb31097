package media

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/dealspot/dealspot/internal/domain"
)

// Images tells which image paths of this site exist and their sizes, and deletes
// uploads.
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
	if _, ok := i.shippedImage(path); ok {
		return true, nil
	}
	ok, err := i.store.Has(ctx, path)
	if err != nil {
		return false, fmt.Errorf("look up image: %w", err)
	}
	return ok, nil
}

// Describe returns the images at refs — each a path of this site or an https URL of
// another site, as notes and shops show them — in the order of refs, with their sizes
// and types where the server knows them: an upload's, recorded when it was uploaded,
// and a demo picture's. An image of another site, whose file the server never reads,
// and a path that serves no known image have their URL only. However many refs name
// uploads, the record of uploads is read once (and not at all when none does). Errors
// are infrastructure failures only.
func (i *Images) Describe(ctx context.Context, refs []string) ([]domain.Image, error) {
	out := make([]domain.Image, len(refs))
	var uploaded []string
	for k, ref := range refs {
		out[k] = domain.Image{URL: ref}
		if !strings.HasPrefix(ref, "/") {
			continue // another site's
		}
		if img, ok := i.shippedImage(ref); ok {
			out[k] = img
			continue
		}
		uploaded = append(uploaded, ref)
	}
	if len(uploaded) == 0 {
		return out, nil
	}
	slices.Sort(uploaded)
	ups, err := i.uploads.UploadsAt(ctx, slices.Compact(uploaded))
	if err != nil {
		return nil, fmt.Errorf("look up uploaded images: %w", err)
	}
	for k, ref := range refs {
		if u, ok := ups[ref]; ok {
			out[k] = u.Image
		}
	}
	return out, nil
}

// shippedImage returns the image that comes with the server at path, if any.
func (i *Images) shippedImage(path string) (domain.Image, bool) {
	if i.shipped == nil {
		return domain.Image{}, false
	}
	img, ok := i.shipped.Image(path)
	if !ok {
		return domain.Image{}, false
	}
	img.URL = path
	return img, true
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
