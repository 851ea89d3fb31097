package server_test

import (
	"crypto/sha256"
	"encoding/base64"
	"html"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/dealspot/dealspot/internal/server"
)

func TestIDEWorksOffline(t *testing.T) {
	t.Parallel()
	h, _ := newTestHandler(t, server.Options{IDE: true})
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	page := rec.Body.String()
	if rec.Code != http.StatusOK || !strings.Contains(page, "GraphiQL") {
		t.Fatalf("IDE page: %d %.200s", rec.Code, page)
	}
	if m := regexp.MustCompile(`(?i)(https?:)?//[a-z0-9.-]+\.[a-z]{2,}`).FindString(page); m != "" {
		t.Fatalf("the IDE page refers to %q, an external address", m)
	}
	refs := regexp.MustCompile(`(?s)(?:src|href)="([^"]+)"\s+integrity="([^"]+)"`).FindAllStringSubmatch(page, -1)
	if len(refs) != 4 {
		t.Fatalf("want 4 assets with integrity (react, react-dom, graphiql js and css), found %d", len(refs))
	}
	for _, ref := range refs {
		path, sri := html.UnescapeString(ref[1]), html.UnescapeString(ref[2])
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if rec.Code != http.StatusOK || rec.Body.Len() < 1000 {
			t.Errorf("%s: status %d, %d bytes", path, rec.Code, rec.Body.Len())
			continue
		}
		sum := sha256.Sum256(rec.Body.Bytes())
		if got := "sha256-" + base64.StdEncoding.EncodeToString(sum[:]); got != sri {
			t.Errorf("%s: integrity %s, page says %s", path, got, sri)
		}
		ct := rec.Header().Get("Content-Type")
		if !strings.Contains(ct, "javascript") && !strings.Contains(ct, "css") {
			t.Errorf("%s: content type %q", path, ct)
		}
	}
	// Without the IDE neither the page nor its assets are served.
	h, _ = newTestHandler(t, server.Options{})
	for _, path := range []string{"/", "/ide/graphiql.min.js"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if rec.Code != http.StatusNotFound {
			t.Errorf("IDE off: %s status %d, want 404", path, rec.Code)
		}
	}
}
