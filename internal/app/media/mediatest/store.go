// Package mediatest holds the contracts of the media store and of the record of uploads:
// suites every adapter of those ports runs, and the media tests' in-memory fakes too, so
// that they cannot drift from the real things.
//
// media's other port, RateLimiter, is auth.RateLimiter's shape: its contract is
// authtest.RateLimiterContract, which the Redis limiter and authtest.MemRateLimiter (the
// media tests' limiter) run.
package mediatest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/dealspot/dealspot/internal/app/media"
)

// Store is a media store with a way to read back what it serves.
type Store struct {
	media.Store
	// Read returns what is served at url and its content type (found false: nothing).
	Read func(t *testing.T, url string) (data []byte, contentType string, found bool)
}

// StoreContract is what every media.Store must do, as its doc comment says: an image put
// under a name is served whole, with its content type, at the URL Put returns, and
// stays there when others are put. newStore returns a store of its own.
func StoreContract(t *testing.T, newStore func(t *testing.T) Store) {
	t.Helper()
	t.Run("a put image is served whole at its URL, beside the others", func(t *testing.T) {
		t.Parallel()
		s := newStore(t)
		type image struct {
			name, contentType string
			data              []byte
			url               string
		}
		images := []*image{
			{name: randomName(t) + ".png", contentType: "image/png", data: []byte("\x89PNG\r\n\x1a\nfirst")},
			{name: randomName(t) + ".jpg", contentType: "image/jpeg", data: []byte("\xff\xd8\xff\xe0second")},
			{name: randomName(t) + ".webp", contentType: "image/webp", data: []byte("RIFF\x00\x00\x00\x00WEBPthird")},
		}
		for _, img := range images {
			url, err := s.Put(context.Background(), img.name, img.contentType, img.data)
			if err != nil || url == "" {
				t.Fatalf("put %s: %q, %v; want a URL", img.name, url, err)
			}
			img.url = url
		}
		for _, img := range images {
			data, ct, found := s.Read(t, img.url)
			if !found || ct != img.contentType || !bytes.Equal(data, img.data) {
				t.Fatalf("at %s: %q (%s, found %v); want %q (%s)", img.url, data, ct, found, img.data, img.contentType)
			}
		}
		if images[0].url == images[1].url {
			t.Fatalf("two images at one URL %s", images[0].url)
		}
		if _, _, found := s.Read(t, images[0].url[:len(images[0].url)-len(images[0].name)]+randomName(t)+".png"); found {
			t.Fatal("an image never put is served")
		}
	})
	t.Run("it has what it serves, and a deleted image is gone", func(t *testing.T) {
		t.Parallel()
		s := newStore(t)
		ctx := context.Background()
		name := randomName(t)
		kept, err := s.Put(ctx, name+".png", "image/png", []byte("\x89PNG\r\n\x1a\nkept"))
		if err != nil {
			t.Fatal(err)
		}
		gone, err := s.Put(ctx, randomName(t)+".jpg", "image/jpeg", []byte("\xff\xd8\xff\xe0gone"))
		if err != nil {
			t.Fatal(err)
		}
		never := kept[:len(kept)-len(name)-len(".png")] + randomName(t) + ".png"
		for url, want := range map[string]bool{kept: true, gone: true, never: false, "": false, "/imgs/shops/1-1.jpg": false,
			kept + "x": false, strings.TrimSuffix(kept, ".png") + ".jpg": false, "https://elsewhere.example" + kept: false} {
			if got, err := s.Has(ctx, url); err != nil || got != want {
				t.Errorf("Has(%q) = %v, %v; want %v", url, got, err, want)
			}
		}
		if deleted, err := s.Delete(ctx, gone); err != nil || !deleted {
			t.Fatalf("Delete(%s) = %v, %v; want true", gone, deleted, err)
		}
		if has, err := s.Has(ctx, gone); err != nil || has {
			t.Errorf("Has(%s) after Delete = %v, %v", gone, has, err)
		}
		if _, _, found := s.Read(t, gone); found {
			t.Errorf("%s is served after Delete", gone)
		}
		if deleted, err := s.Delete(ctx, gone); err != nil || deleted {
			t.Errorf("Delete(%s) again = %v, %v; want false", gone, deleted, err)
		}
		for _, url := range []string{never, "", "/imgs/shops/1-1.jpg"} {
			if deleted, err := s.Delete(ctx, url); err != nil || deleted {
				t.Errorf("Delete(%q) = %v, %v; want false", url, deleted, err)
			}
		}
		if _, _, found := s.Read(t, kept); !found {
			t.Errorf("%s, never deleted, is not served", kept)
		}
	})
}

// randomName returns 32 random lower-case hex digits, the names media.Upload gives.
func randomName(t *testing.T) string {
	t.Helper()
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}
