package server_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/dealspot/dealspot/internal/server"
)

// mediaStub answers every request it gets with 200 and remembers the paths.
type mediaStub struct {
	mu    sync.Mutex
	paths []string
}

func (m *mediaStub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	m.mu.Lock()
	m.paths = append(m.paths, r.URL.Path)
	m.mu.Unlock()
	w.WriteHeader(http.StatusOK)
}

func (m *mediaStub) seen() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.paths...)
}

func TestMediaIsMountedUnderMedia(t *testing.T) {
	t.Parallel()
	media := &mediaStub{}
	h, _ := newTestHandler(t, server.Options{Media: media})
	const img = "/media/0123456789abcdef0123456789abcdef.png"
	for _, method := range []string{http.MethodGet, http.MethodHead} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(method, img, nil))
		if rec.Code != http.StatusOK {
			t.Fatalf("%s %s: %d", method, img, rec.Code)
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, img, strings.NewReader("x")))
	if rec.Code != http.StatusMethodNotAllowed {
		t.Fatalf("POST %s: %d, want 405", img, rec.Code)
	}
	// Paths with dot segments are redirected to their clean form, never handed over.
	for _, p := range []string{"/media/../x", "/media/./../../etc/passwd"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, p, nil))
		if rec.Code/100 != 3 {
			t.Errorf("GET %s: %d, want a redirect", p, rec.Code)
		}
	}
	if got := media.seen(); len(got) != 2 || got[0] != img || got[1] != img {
		t.Fatalf("the media handler saw %q, want the image twice", got)
	}
	// Escaped dot segments are not cleaned: they reach the media handler decoded, and it
	// is the handler's to refuse them (adapters/media/localfs does).
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/media/%2e%2e/x", nil))
	if got := media.seen(); len(got) != 3 || got[2] != "/media/../x" {
		t.Fatalf("the media handler saw %q", got)
	}

	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if body := rec.Body.String(); !strings.Contains(body, `route="/media/"`) || strings.Contains(body, "0123456789abcdef") {
		t.Fatal("image requests are not counted under one route label /media/")
	}

	without, _ := newTestHandler(t, server.Options{})
	rec = httptest.NewRecorder()
	without.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, img, nil))
	if rec.Code != http.StatusNotFound {
		t.Fatalf("without a media handler: %d, want 404", rec.Code)
	}
}
