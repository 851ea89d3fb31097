package media_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/dealspot/dealspot/internal/app/media"
	"github.com/dealspot/dealspot/internal/domain"
)

// shipped are the images that come with the server, in the tests.
type shipped map[string]domain.Image

func (s shipped) Image(path string) (domain.Image, bool) {
	img, ok := s[path]
	return img, ok
}

// demoPicture is the one image that comes with the server in the tests.
var demoPicture = domain.Image{URL: "/imgs/shops/1-1.jpg", Width: 480, Height: 320, ContentType: "image/jpeg"}

func newImages(t *testing.T, e *env) *media.Images {
	t.Helper()
	images, err := media.NewImages(media.ImagesDeps{Store: e.store, Uploads: e.uploads, Shipped: shipped{demoPicture.URL: demoPicture}})
	if err != nil {
		t.Fatal(err)
	}
	return images
}

// TestUploadsAreRecordedAndExist: an upload is recorded as its uploader's, and exists
// until deleted; the shipped pictures exist; any other path of the site does not.
func TestUploadsAreRecordedAndExist(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	images := newImages(t, e)
	ctx := context.Background()
	img, err := e.handle(user, encodePNG(t, 30, 20))
	if err != nil {
		t.Fatal(err)
	}
	if u, ok := e.uploads.Uploaded(img.URL); !ok || u.UserID != user.UserID || u.Image != img {
		t.Errorf("recorded %+v (%v); want %+v by user %d", u, ok, img, user.UserID)
	}
	for path, want := range map[string]bool{img.URL: true, "/imgs/shops/1-1.jpg": true, "/imgs/nothing.jpg": false,
		"/media/does-not-exist.png": false, "/media/0123456789abcdef0123456789abcdef.png": false} {
		if got, err := images.Exists(ctx, path); err != nil || got != want {
			t.Errorf("Exists(%s) = %v, %v; want %v", path, got, err, want)
		}
	}
	if _, err := images.Delete(ctx, user, img.URL); err != nil {
		t.Fatal(err)
	}
	if got, err := images.Exists(ctx, img.URL); err != nil || got {
		t.Errorf("Exists(%s) after deleting it = %v, %v", img.URL, got, err)
	}
}

// TestAnUploadThatCannotBeRecordedIsNotKept: an image whose uploader could not be
// recorded could never be deleted; it is not kept.
func TestAnUploadThatCannotBeRecordedIsNotKept(t *testing.T) {
	t.Parallel()
	store := &memStore{}
	u, err := media.New(defaults, media.Deps{Store: store, Uploads: failingUploads{errors.New("database down")}, Limiter: newLimiter()})
	if err != nil {
		t.Fatal(err)
	}
	src := encodePNG(t, 3, 2)
	if _, err := u.Handle(context.Background(), user, bytes.NewReader(src), int64(len(src))); err == nil {
		t.Fatal("accepted an upload it could not record")
	}
	if n := len(store.files); n != 0 {
		t.Errorf("%d images kept", n)
	}
}

type failingUploads struct{ err error }

func (f failingUploads) AddUpload(context.Context, domain.Upload) error { return f.err }
func (f failingUploads) DeleteUpload(context.Context, string, func(domain.Upload, bool) error) (bool, error) {
	return false, f.err
}
func (f failingUploads) UploadsAt(context.Context, []string) (map[string]domain.Upload, error) {
	return nil, f.err
}

// TestDeleteImage: an uploader deletes their own upload once nothing shows it; nobody
// else may, but an ADMIN; an unknown url is nothing to delete.
func TestDeleteImage(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	images := newImages(t, e)
	ctx := context.Background()
	img, err := e.handle(user, encodePNG(t, 30, 20))
	if err != nil {
		t.Fatal(err)
	}
	_, err = images.Delete(ctx, domain.Actor{}, img.URL)
	refused(t, err, domain.CodeUnauthenticated, "log in")
	_, err = images.Delete(ctx, other, img.URL)
	refused(t, err, domain.CodeForbidden, "uploader")
	e.uploads.Use(img.URL)
	_, err = images.Delete(ctx, user, img.URL)
	refused(t, err, domain.CodeConflict, "in use")
	if has, _ := e.store.Has(ctx, img.URL); !has {
		t.Fatal("a refused delete removed the image")
	}
	e.uploads.Unuse(img.URL)
	if deleted, err := images.Delete(ctx, user, img.URL); err != nil || !deleted {
		t.Fatalf("the uploader's delete = %v, %v", deleted, err)
	}
	if has, _ := e.store.Has(ctx, img.URL); has {
		t.Error("a deleted image is still stored")
	}
	if deleted, err := images.Delete(ctx, user, img.URL); err != nil || deleted {
		t.Errorf("deleting it again = %v, %v; want false", deleted, err)
	}
	for _, url := range []string{"/imgs/shops/1-1.jpg", "https://elsewhere.example/a.png", "/media/0123456789abcdef0123456789abcdef.png"} {
		if deleted, err := images.Delete(ctx, user, url); err != nil || deleted {
			t.Errorf("Delete(%s) = %v, %v; want false: no upload", url, deleted, err)
		}
	}
	_, err = images.Delete(ctx, user, " ")
	refused(t, err, domain.CodeBadUserInput, "url")

	theirs, err := e.handle(other, encodePNG(t, 3, 2))
	if err != nil {
		t.Fatal(err)
	}
	if deleted, err := images.Delete(ctx, domain.Actor{UserID: 99, Role: domain.RoleAdmin}, theirs.URL); err != nil || !deleted {
		t.Errorf("an ADMIN's delete = %v, %v", deleted, err)
	}
}
