package demopics_test

import (
	"bytes"
	"image"
	_ "image/jpeg"
	_ "image/png"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/dealspot/dealspot/adapters/media/demopics"
	"github.com/dealspot/dealspot/internal/domain"
)

// TestServesOnlyItsPictures: each known path is a small real image of its extension's
// format, the same bytes every time; any other path, or method, is refused.
func TestServesOnlyItsPictures(t *testing.T) {
	t.Parallel()
	p, err := demopics.New([]string{"/imgs/shops/1-1.jpg", "/imgs/shops/1-2.jpg", "/types/ms.png", "/imgs/icons/1.jpg"})
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Prefixes(); !slices.Equal(got, []string{"/imgs/", "/types/"}) {
		t.Errorf("prefixes %v", got)
	}
	get := func(method, path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		p.Handler().ServeHTTP(rec, httptest.NewRequest(method, path, nil))
		return rec
	}
	for path, format := range map[string]string{"/imgs/shops/1-1.jpg": "jpeg", "/types/ms.png": "png", "/imgs/icons/1.jpg": "jpeg"} {
		rec := get(http.MethodGet, path)
		cfg, got, err := image.DecodeConfig(bytes.NewReader(rec.Body.Bytes()))
		if rec.Code != http.StatusOK || err != nil || got != format || rec.Header().Get("Content-Type") != "image/"+format ||
			rec.Header().Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET %s: %d %v, %s %v", path, rec.Code, rec.Header(), got, err)
			continue
		}
		if cfg.Width < 32 || rec.Body.Len() > 20<<10 {
			t.Errorf("GET %s: %dx%d in %d bytes; want a picture of a few KB", path, cfg.Width, cfg.Height, rec.Body.Len())
		}
		if again := get(http.MethodGet, path); !bytes.Equal(again.Body.Bytes(), rec.Body.Bytes()) {
			t.Errorf("GET %s twice: two pictures", path)
		}
		if _, ok := p.Image(path); !ok {
			t.Errorf("Image(%s): none", path)
		}
	}
	if a, b := get(http.MethodGet, "/imgs/shops/1-1.jpg"), get(http.MethodGet, "/imgs/shops/1-2.jpg"); bytes.Equal(a.Body.Bytes(), b.Body.Bytes()) {
		t.Error("a shop's two photos are the same picture")
	}
	for _, path := range []string{"/imgs/shops/9-1.jpg", "/imgs/shops/1-1.png", "/imgs/", "/imgs/shops/../shops/1-1.jpg", "/imgs/shops/1-1.jpg/", "/imgs/shops/1%2d1.jpg"} {
		if rec := get(http.MethodGet, path); rec.Code != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", path, rec.Code)
		}
		if _, ok := p.Image(path); ok {
			t.Errorf("Image(%s): one", path)
		}
	}
	if rec := get(http.MethodPost, "/types/ms.png"); rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d", rec.Code)
	}
}

func TestRefusesPathsItCannotServe(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{"imgs/a.jpg", "/a.jpg", "/imgs/a.gif", "/imgs/../a.jpg", "/imgs//a.jpg", "/imgs/a"} {
		if _, err := demopics.New([]string{bad}); err == nil {
			t.Errorf("New(%q) accepted", bad)
		}
	}
}

// TestImageIsTheDrawnSize: Image tells each picture's size and type as the picture
// served at its path decodes, for every folder the demo data uses; nothing for a path
// it does not serve.
func TestImageIsTheDrawnSize(t *testing.T) {
	t.Parallel()
	paths := []string{"/imgs/shops/1-1.jpg", "/types/ms.png", "/imgs/icons/1.jpg", "/imgs/other/x.png"}
	p, err := demopics.New(paths)
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range paths {
		img, ok := p.Image(path)
		rec := httptest.NewRecorder()
		p.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		cfg, format, err := image.DecodeConfig(bytes.NewReader(rec.Body.Bytes()))
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		want := domain.Image{URL: path, Width: cfg.Width, Height: cfg.Height, ContentType: "image/" + format}
		if !ok || img != want || rec.Header().Get("Content-Type") != want.ContentType {
			t.Errorf("Image(%s) = %+v, %v; served %+v as %s", path, img, ok, want, rec.Header().Get("Content-Type"))
		}
	}
	if img, ok := p.Image("/imgs/shops/9-1.jpg"); ok || img != (domain.Image{}) {
		t.Errorf("Image of a path not served = %+v, %v", img, ok)
	}
}
