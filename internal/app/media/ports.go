package media

import (
	"context"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// Store keeps uploaded images (the media store).
type Store interface {
	// Put stores data under name (a random hex name with the extension of contentType)
	// and returns the URL it is served at. Errors are infrastructure failures only.
	Put(ctx context.Context, name, contentType string, data []byte) (url string, err error)
	// Has reports whether an image is served at url (any string: a URL of another
	// store, or no URL at all, is false). Errors are infrastructure failures only.
	Has(ctx context.Context, url string) (bool, error)
	// Delete removes the image served at url; false when there was none. Errors are
	// infrastructure failures only.
	Delete(ctx context.Context, url string) (bool, error)
}

// Uploads records who uploaded which image.
type Uploads interface {
	// AddUpload records an upload (its ID and CreatedAt are set by the store). Errors:
	// any error for a URL already recorded, otherwise infrastructure failures only.
	AddUpload(ctx context.Context, u domain.Upload) error
	// DeleteUpload deletes the record of the upload at url in one transaction with
	// check, which is called with the record and whether anything shows the image: a
	// note's images, a user's icon or a shop's photos naming url. The record is
	// deleted only when check returns nil; check's error is returned as it is. It
	// reports false, without calling check, when no upload is recorded at url.
	DeleteUpload(ctx context.Context, url string, check func(u domain.Upload, inUse bool) error) (bool, error)
	// UploadsAt returns the uploads recorded at urls, by url, with one read however many
	// urls there are; a url without a record is missing from the map. Errors are
	// infrastructure failures only.
	UploadsAt(ctx context.Context, urls []string) (map[string]domain.Upload, error)
}

// Shipped are the images that come with the server: the demo data's pictures.
type Shipped interface {
	// Image returns the image at path, with its size and type, and whether path is one
	// of them. It reads no file.
	Image(path string) (domain.Image, bool)
}

// RateLimiter counts events per key in a sliding window (the shape of
// auth.RateLimiter, so one adapter serves both).
type RateLimiter interface {
	// Allow records one event for key if fewer than limit were recorded in the last
	// window; otherwise it records nothing and returns ok=false and how long until an
	// event would be allowed. Errors are infrastructure failures only.
	Allow(ctx context.Context, key string, limit int, window time.Duration) (ok bool, retryAfter time.Duration, err error)
}
