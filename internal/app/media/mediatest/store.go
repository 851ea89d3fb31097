// Package mediatest holds the contract of the media store: a suite every adapter of the
// port runs, and the media tests' in-memory store too, so that it cannot drift from the
// real thing.
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
