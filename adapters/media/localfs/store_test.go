package localfs_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dealspot/dealspot/adapters/media/localfs"
)

const name = "0123456789abcdef0123456789abcdef.png"

var pngBytes = []byte("\x89PNG\r\n\x1a\nnot decoded here")

func newStore(t *testing.T) (*localfs.Store, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "media")
	s, err := localfs.New(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	return s, dir
}

func get(h http.Handler, method, target string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, target, nil))
	return rec
}

func TestPutWritesAFileAndHandlerServesIt(t *testing.T) {
	t.Parallel()
	s, dir := newStore(t)
	url, err := s.Put(context.Background(), name, "image/png", pngBytes)
	if err != nil {
		t.Fatal(err)
	}
	if url != "/media/"+name {
		t.Fatalf("url %q", url)
	}
	info, err := os.Stat(filepath.Join(dir, name))
	if err != nil || info.Mode().Perm() != 0o644 {
		t.Fatalf("stored file: %v, mode %v; want 0644", err, info.Mode())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("%d entries in the directory, want the image alone (no temporary file left)", len(entries))
	}

	rec := get(s.Handler(), http.MethodGet, url)
	if rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), pngBytes) {
		t.Fatalf("GET %s: %d %q", url, rec.Code, rec.Body.Bytes())
	}
	for header, want := range map[string]string{
		"Content-Type":            "image/png",
		"X-Content-Type-Options":  "nosniff",
		"Cache-Control":           "public, max-age=31536000, immutable",
		"Content-Security-Policy": "default-src 'none'; sandbox",
		"ETag":                    `"` + name + `"`,
	} {
		if got := rec.Header().Get(header); got != want {
			t.Errorf("%s: %q, want %q", header, got, want)
		}
	}

	head := get(s.Handler(), http.MethodHead, url)
	if head.Code != http.StatusOK || head.Body.Len() != 0 || head.Header().Get("Content-Type") != "image/png" {
		t.Fatalf("HEAD: %d, %d bytes, %q", head.Code, head.Body.Len(), head.Header().Get("Content-Type"))
	}
	req := httptest.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("If-None-Match", `"`+name+`"`)
	cached := httptest.NewRecorder()
	s.Handler().ServeHTTP(cached, req)
	if cached.Code != http.StatusNotModified {
		t.Fatalf("revalidation: %d, want 304", cached.Code)
	}
	if post := get(s.Handler(), http.MethodPost, url); post.Code != http.StatusMethodNotAllowed {
		t.Fatalf("POST: %d, want 405", post.Code)
	}
}

func TestContentTypeComesFromTheStoredExtension(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	for ext, ct := range map[string]string{".jpg": "image/jpeg", ".png": "image/png", ".gif": "image/gif", ".webp": "image/webp"} {
		n := strings.Repeat("ab", 16) + ext
		url, err := s.Put(context.Background(), n, ct, []byte("x"))
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		if got := get(s.Handler(), http.MethodGet, url).Header().Get("Content-Type"); got != ct {
			t.Errorf("%s served as %q, want %q", n, got, ct)
		}
	}
}

func TestPutRefusesOtherNames(t *testing.T) {
	t.Parallel()
	s, dir := newStore(t)
	hex := "0123456789abcdef0123456789abcdef"
	for _, c := range []struct{ name, contentType string }{
		{"../" + hex + ".png", "image/png"},
		{hex + "/x.png", "image/png"},
		{"short.png", "image/png"},
		{strings.ToUpper(hex) + ".png", "image/png"},
		{hex + ".exe", "application/octet-stream"},
		{hex + ".svg", "image/svg+xml"},
		{hex + ".html", "text/html"},
		{hex + ".png", "image/jpeg"}, // the extension and the type disagree
		{hex + ".png.png", "image/png"},
		{hex, "image/png"},
		{"", "image/png"},
	} {
		if _, err := s.Put(context.Background(), c.name, c.contentType, pngBytes); err == nil {
			t.Errorf("Put(%q, %s) accepted", c.name, c.contentType)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("%d files written", len(entries))
	}
}

func TestHandlerServesOnlyStoredNames(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	dir := filepath.Join(root, "media")
	s, err := localfs.New(dir, "/media/")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Put(context.Background(), name, "image/png", pngBytes); err != nil {
		t.Fatal(err)
	}
	// Files a request must never reach: outside the directory, inside it under another
	// name, a half-written upload, and a directory with a valid name.
	for path, data := range map[string]string{
		filepath.Join(root, "x"):                  "secret outside",
		filepath.Join(root, "secret.png"):         "secret outside",
		filepath.Join(dir, "notes.txt"):           "secret inside",
		filepath.Join(dir, ".upload-123"):         "half written",
		filepath.Join(dir, strings.ToUpper(name)): "upper case",
	} {
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "fedcba9876543210fedcba9876543210.png"), 0o755); err != nil {
		t.Fatal(err)
	}
	paths := []string{
		"/media/",
		"/media",
		"/media/../x",
		"/media/%2e%2e/x",
		"/media/%2E%2E/secret.png",
		"/media/..%2fx",
		"/media/..%2f..%2fx",
		"/media/%2e%2e%2fx",
		"/media/./" + name,
		"/media//" + name,
		"/media/" + name + "/",
		"/media/" + name + "/..",
		"/media/" + name + "%00",
		"/media/" + strings.Replace(name, "0", "%30", 1),
		"/media/notes.txt",
		"/media/.upload-123",
		"/media/" + strings.ToUpper(name),
		"/media/fedcba9876543210fedcba9876543210.png",
		"/media/ffffffffffffffffffffffffffffffff.png", // valid, never stored
		"/media/" + name + ".bak",
		"/media/" + strings.TrimSuffix(name, ".png") + ".svg",
		"/other/" + name,
	}
	h := s.Handler()
	for _, p := range paths {
		rec := get(h, http.MethodGet, p)
		if rec.Code != http.StatusNotFound || strings.Contains(rec.Body.String(), "secret") ||
			strings.Contains(rec.Body.String(), "half written") || strings.Contains(rec.Body.String(), "upper case") {
			t.Errorf("GET %s: %d %q, want 404", p, rec.Code, rec.Body.String())
		}
	}
	// The same over a real connection, where nothing cleans the path first.
	srv := httptest.NewServer(h)
	defer srv.Close()
	for _, p := range append(paths, "/media/"+name) {
		req, err := http.NewRequest(http.MethodGet, srv.URL, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.URL.Opaque = p // sent as written
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		want := http.StatusNotFound
		if p == "/media/"+name {
			want = http.StatusOK
		}
		if resp.StatusCode != want || (want == http.StatusNotFound && bytes.Contains(body, []byte("secret"))) {
			t.Errorf("GET %s over HTTP: %d %q, want %d", p, resp.StatusCode, body, want)
		}
	}
}

func TestPutLeavesNothingWhenItFails(t *testing.T) {
	t.Parallel()
	s, dir := newStore(t)
	// A directory in the way makes the final rename fail.
	if err := os.MkdirAll(filepath.Join(dir, name, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Put(context.Background(), name, "image/png", pngBytes); err == nil {
		t.Fatal("Put over a directory succeeded")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("%d entries after a failed Put, want the directory alone (the temporary file removed)", len(entries))
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Put(context.Background(), name, "image/png", pngBytes); err == nil {
		t.Fatal("Put into a removed directory succeeded")
	}
}

func TestNewChecksItsArguments(t *testing.T) {
	t.Parallel()
	if _, err := localfs.New("", "/media/"); err == nil {
		t.Error("no directory accepted")
	}
	if _, err := localfs.New(t.TempDir(), "/media"); err == nil {
		t.Error("a prefix without a trailing slash accepted")
	}
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := localfs.New(file, ""); err == nil {
		t.Error("a file as the directory accepted")
	}
	s, err := localfs.New(t.TempDir(), "https://cdn.example/media/")
	if err != nil {
		t.Fatal(err)
	}
	if url, err := s.Put(context.Background(), name, "image/png", pngBytes); err != nil || url != "https://cdn.example/media/"+name {
		t.Fatalf("url %q, %v", url, err)
	}
}
