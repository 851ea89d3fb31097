package mediatest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/media"
	"github.com/dealspot/dealspot/internal/domain"
)

// UploadStore is a media.Uploads with the ways its store learns that an image is shown.
type UploadStore struct {
	media.Uploads
	// Uses names each way something shows an image — a note's images, a user's icon, a
	// shop's photos — with a function that makes url shown that way.
	Uses map[string]func(t *testing.T, url string)
}

// UploadsContract is what every media.Uploads must do, as its doc comment says.
// newStore returns a store of its own.
func UploadsContract(t *testing.T, newStore func(t *testing.T) UploadStore) {
	t.Helper()
	ctx := context.Background()
	add := func(t *testing.T, s UploadStore, userID int64) domain.Upload {
		t.Helper()
		u := domain.Upload{UserID: userID, Image: domain.Image{URL: "/media/" + randomName(t) + ".png", Width: 30, Height: 20, ContentType: "image/png"}}
		if err := s.AddUpload(ctx, u); err != nil {
			t.Fatalf("AddUpload(%s): %v", u.URL, err)
		}
		return u
	}
	// deleteSeeing deletes url with a check that returns err, and tells what it saw.
	type seen struct {
		called bool
		upload domain.Upload
		inUse  bool
	}
	deleteSeeing := func(s UploadStore, url string, err error) (bool, seen, error) {
		var saw seen
		deleted, derr := s.DeleteUpload(ctx, url, func(u domain.Upload, inUse bool) error {
			saw = seen{called: true, upload: u, inUse: inUse}
			return err
		})
		return deleted, saw, derr
	}

	t.Run("a recorded upload is checked once, then gone", func(t *testing.T) {
		t.Parallel()
		s := newStore(t)
		u := add(t, s, 7)
		deleted, saw, err := deleteSeeing(s, u.URL, nil)
		if err != nil || !deleted || !saw.called {
			t.Fatalf("DeleteUpload = %v, %v (check called: %v); want true", deleted, err, saw.called)
		}
		got := saw.upload
		if got.ID <= 0 || got.UserID != 7 || got.Image != u.Image || got.CreatedAt.IsZero() || saw.inUse {
			t.Errorf("check saw %+v, in use %v; want %+v with an id and a time, not in use", got, saw.inUse, u)
		}
		deleted, saw, err = deleteSeeing(s, u.URL, nil)
		if err != nil || deleted || saw.called {
			t.Errorf("DeleteUpload again = %v, %v (check called: %v); want false without a check", deleted, err, saw.called)
		}
	})

	t.Run("check's error keeps the record", func(t *testing.T) {
		t.Parallel()
		s := newStore(t)
		u := add(t, s, 8)
		refused := errors.New("refused")
		if deleted, _, err := deleteSeeing(s, u.URL, refused); !errors.Is(err, refused) || deleted {
			t.Fatalf("DeleteUpload with a refusing check = %v, %v; want its error", deleted, err)
		}
		if deleted, saw, err := deleteSeeing(s, u.URL, nil); err != nil || !deleted || !saw.called {
			t.Errorf("DeleteUpload after a refusal = %v, %v; want true", deleted, err)
		}
	})

	t.Run("an unknown url is no upload, and a url is recorded once", func(t *testing.T) {
		t.Parallel()
		s := newStore(t)
		if deleted, saw, err := deleteSeeing(s, "/media/"+randomName(t)+".png", nil); err != nil || deleted || saw.called {
			t.Errorf("DeleteUpload of an unknown url = %v, %v (check called: %v)", deleted, err, saw.called)
		}
		u := add(t, s, 9)
		if err := s.AddUpload(ctx, u); err == nil {
			t.Errorf("AddUpload(%s) twice: accepted", u.URL)
		}
	})

	t.Run("uploads are read by their urls, the unknown ones left out", func(t *testing.T) {
		t.Parallel()
		s := newStore(t)
		a, gone := add(t, s, 11), add(t, s, 11)
		b := domain.Upload{UserID: 12, Image: domain.Image{URL: "/media/" + randomName(t) + ".webp", Width: 7, Height: 9, ContentType: "image/webp"}}
		if err := s.AddUpload(ctx, b); err != nil {
			t.Fatal(err)
		}
		if deleted, _, err := deleteSeeing(s, gone.URL, nil); err != nil || !deleted {
			t.Fatalf("DeleteUpload = %v, %v", deleted, err)
		}
		unknown := "/media/" + randomName(t) + ".png"
		got, err := s.UploadsAt(ctx, []string{unknown, b.URL, gone.URL, a.URL, "https://elsewhere.example/a.png"})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got[a.URL].Image != a.Image || got[a.URL].UserID != 11 || got[b.URL].Image != b.Image ||
			got[b.URL].UserID != 12 || got[b.URL].ID <= 0 {
			t.Errorf("UploadsAt = %+v; want %+v and %+v only", got, a, b)
		}
		if got, err := s.UploadsAt(ctx, nil); err != nil || len(got) != 0 {
			t.Errorf("UploadsAt(nil) = %v, %v; want none", got, err)
		}
	})

	t.Run("an image shown anywhere is in use", func(t *testing.T) {
		t.Parallel()
		s := newStore(t)
		for how, use := range s.Uses {
			shown, other := add(t, s, 10), add(t, s, 10)
			use(t, shown.URL)
			if _, saw, err := deleteSeeing(s, shown.URL, errors.New("keep")); !saw.called || !saw.inUse {
				t.Errorf("%s: DeleteUpload saw in use %v (%v); want true", how, saw.inUse, err)
			}
			if _, saw, err := deleteSeeing(s, other.URL, errors.New("keep")); !saw.called || saw.inUse {
				t.Errorf("%s: an image nothing shows is in use (%v)", how, err)
			}
		}
		if len(s.Uses) == 0 {
			t.Error("no way to show an image")
		}
	})
}

// MemUploads is an in-memory media.Uploads; Use marks an image as shown.
type MemUploads struct {
	mu      sync.Mutex
	uploads map[string]domain.Upload
	used    map[string]bool
	lastID  atomic.Int64
}

var _ media.Uploads = (*MemUploads)(nil)

// AddUpload implements media.Uploads.
func (m *MemUploads) AddUpload(_ context.Context, u domain.Upload) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, taken := m.uploads[u.URL]; taken {
		return fmt.Errorf("upload %s recorded already", u.URL)
	}
	if m.uploads == nil {
		m.uploads = map[string]domain.Upload{}
	}
	u.ID, u.CreatedAt = m.lastID.Add(1), time.Now()
	m.uploads[u.URL] = u
	return nil
}

// DeleteUpload implements media.Uploads.
func (m *MemUploads) DeleteUpload(_ context.Context, url string, check func(u domain.Upload, inUse bool) error) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	u, ok := m.uploads[url]
	if !ok {
		return false, nil
	}
	if err := check(u, m.used[url]); err != nil {
		return false, err
	}
	delete(m.uploads, url)
	return true, nil
}

// UploadsAt implements media.Uploads.
func (m *MemUploads) UploadsAt(_ context.Context, urls []string) (map[string]domain.Upload, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make(map[string]domain.Upload, len(urls))
	for _, url := range urls {
		if u, ok := m.uploads[url]; ok {
			out[url] = u
		}
	}
	return out, nil
}

// Use marks url as shown (as a note's image, say) until Unuse.
func (m *MemUploads) Use(url string) { m.setUsed(url, true) }

// Unuse marks url as shown nowhere.
func (m *MemUploads) Unuse(url string) { m.setUsed(url, false) }

func (m *MemUploads) setUsed(url string, used bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.used == nil {
		m.used = map[string]bool{}
	}
	m.used[url] = used
}

// Uploaded returns the upload recorded at url.
func (m *MemUploads) Uploaded(url string) (domain.Upload, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	u, ok := m.uploads[url]
	return u, ok
}
