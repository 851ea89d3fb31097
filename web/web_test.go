package web_test

import (
	"bytes"
	"context"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dealspot/dealspot/web"
)

// TestDistIsBuiltFromTheSources: the app's GraphQL documents still hold against the
// server's schema (graphql-codegen validates them and types them into src/gql, which
// must be up to date), and building the app from src/ gives exactly the files in dist/,
// which the server embeds — a schema change that breaks the app, or a source change
// without `make web`, fails here.
func TestDistIsBuiltFromTheSources(t *testing.T) {
	npx, err := exec.LookPath("npx")
	if err == nil {
		_, err = os.Stat("node_modules/vite")
	}
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("node or web's packages are missing (run npm ci in web/): %v", err)
		}
		t.Skipf("node or web's packages are missing (run npm ci in web/): %v", err)
	}
	out := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	typed := files(t, "src/gql")
	gen := exec.CommandContext(ctx, npx, "graphql-codegen", "--config", "codegen.yml", "--silent")
	if b, err := gen.CombinedOutput(); err != nil {
		t.Fatalf("the app's GraphQL documents do not hold against the schema (graph/schema):\n%s", b)
	}
	for name, data := range files(t, "src/gql") {
		if typed[name] != data {
			t.Errorf("src/gql/%s was not generated from the current schema and documents: run make web", name)
			_ = os.WriteFile(filepath.Join("src/gql", name), []byte(typed[name]), 0o644) // leave the tree as it was
		}
	}
	cmd := exec.CommandContext(ctx, npx, "vite", "build", "--outDir", out, "--emptyOutDir", "--logLevel", "error")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("vite build: %v\n%s", err, b)
	}
	built := files(t, out)
	kept := files(t, "dist")
	for name, data := range built {
		if kept[name] != data {
			t.Errorf("dist/%s differs from a build of the sources: run make web", name)
		}
	}
	for name := range kept {
		if _, ok := built[name]; !ok {
			t.Errorf("dist/%s is not built from the sources any more: run make web", name)
		}
	}
}

func files(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestServedWithStrictHeaders: the app's page is never cached, its hashed assets are
// cached for a year, and everything carries the content security policy.
func TestServedWithStrictHeaders(t *testing.T) {
	t.Parallel()
	h := web.Handler()
	get := func(path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		return rec
	}
	index := get("/app/")
	if index.Code != http.StatusOK || index.Header().Get("Cache-Control") != "no-cache" ||
		!strings.Contains(index.Header().Get("Content-Security-Policy"), "script-src 'self'") ||
		!strings.Contains(index.Body.String(), "/app/assets/") {
		t.Fatalf("GET /app/: %d %v", index.Code, index.Header())
	}
	asset := index.Body.String()[strings.Index(index.Body.String(), "/app/assets/"):]
	asset = asset[:strings.IndexByte(asset, '"')]
	rec := get(asset)
	if rec.Code != http.StatusOK || rec.Header().Get("Cache-Control") != "public, max-age=31536000, immutable" ||
		rec.Header().Get("X-Content-Type-Options") != "nosniff" {
		t.Fatalf("GET %s: %d %v", asset, rec.Code, rec.Header())
	}
	if rec := get("/app/orders"); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "<div id=\"app\">") {
		t.Errorf("a route of the app: %d", rec.Code)
	}
}

// TestOnlyAppRoutesFallBackToThePage: a path that names a file the app does not have —
// under assets/ or with an extension — is 404, as a missing script must not be answered
// with the page; any other path is a route of the app and gets the page.
func TestOnlyAppRoutesFallBackToThePage(t *testing.T) {
	t.Parallel()
	h := web.Handler()
	for path, want := range map[string]int{
		"/app/assets/x.js":        http.StatusNotFound,
		"/app/assets/x":           http.StatusNotFound,
		"/app/assets/":            http.StatusNotFound,
		"/app/x.png":              http.StatusNotFound,
		"/app/shop/1/photo.jpg":   http.StatusNotFound,
		"/app/favicon.ico":        http.StatusNotFound,
		"/app/":                   http.StatusOK,
		"/app/index.html":         http.StatusOK,
		"/app/orders":             http.StatusOK,
		"/app/shop/12":            http.StatusOK,
		"/app/notes/hot/page-two": http.StatusOK,
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		page := strings.Contains(rec.Body.String(), `<div id="app">`)
		if rec.Code != want || page != (want == http.StatusOK) {
			t.Errorf("GET %s: %d (the page: %v), want %d", path, rec.Code, page, want)
		}
	}
}

// TestFavicon: the favicon is a real icon, and the app's page links to it.
func TestFavicon(t *testing.T) {
	t.Parallel()
	rec := httptest.NewRecorder()
	web.Favicon().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, web.FaviconPath, nil))
	body := rec.Body.Bytes()
	// An ICO file: reserved 0, type 1 (icon), at least one image.
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "image/x-icon" || len(body) < 22 ||
		body[0] != 0 || body[1] != 0 || body[2] != 1 || body[3] != 0 || body[4] == 0 {
		t.Fatalf("GET %s: %d %v, % x", web.FaviconPath, rec.Code, rec.Header(), body[:min(len(body), 22)])
	}
	if _, err := png.Decode(bytes.NewReader(body[22:])); err != nil {
		t.Errorf("the icon's image is not a PNG: %v", err)
	}
	rec = httptest.NewRecorder()
	web.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/app/", nil))
	if !strings.Contains(rec.Body.String(), `<link rel="icon" href="`+web.FaviconPath+`"`) {
		t.Errorf("the page does not link the favicon:\n%s", rec.Body.String())
	}
}
