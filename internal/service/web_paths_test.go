package service_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestFaviconAtTheSiteRoot: browsers ask for /favicon.ico; the server answers with the
// icon, and the app's page links to it.
func TestFaviconAtTheSiteRoot(t *testing.T) {
	t.Parallel()
	srv := startServer(t, nil)
	resp, err := http.Get(srv.URL + "/favicon.ico")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "image/x-icon" || len(body) < 22 {
		t.Fatalf("GET /favicon.ico: %d %s, %d bytes", resp.StatusCode, resp.Header.Get("Content-Type"), len(body))
	}
	resp, err = http.Get(srv.URL + "/app/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if !strings.Contains(string(page), `<link rel="icon" href="/favicon.ico">`) {
		t.Errorf("the app's page does not link the favicon:\n%s", page)
	}
	resp, err = http.Get(srv.URL + "/app/assets/x.js")
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET /app/assets/x.js (no such asset): %d, want 404", resp.StatusCode)
	}
}
