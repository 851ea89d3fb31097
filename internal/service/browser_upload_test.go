package service_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// browserTools returns node and the e2e scripts' directory, or skips (fails under
// CI=true) when the browser tools are not installed: node, Chromium (CHROMIUM or
// /usr/bin/chromium) and e2e's npm packages (npm ci in e2e/).
func browserTools(t *testing.T) (node, dir string) {
	t.Helper()
	missing := func(what string) {
		t.Helper()
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing (CI=true)", what)
		}
		t.Skipf("%s is missing: browser checks skipped", what)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node")
	}
	chromium := os.Getenv("CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	if _, err := os.Stat(chromium); err != nil {
		missing("Chromium (" + chromium + ")")
	}
	dir, err = filepath.Abs("../../e2e")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "playwright-core")); err != nil {
		missing("playwright-core (run npm ci in e2e/)")
	}
	return node, dir
}

// TestUploadFromABrowserForm: in Chromium, a page of the server's origin picks an image
// in a form's file input, uploads it with FormData (the GraphQL multipart request spec)
// and shows it: the browser decodes the served image at the uploaded size.
func TestUploadFromABrowserForm(t *testing.T) {
	t.Parallel()
	node, dir := browserTools(t)
	srv := startServer(t, map[string]string{"JWT_SECRET": testSecret, "MEDIA_DIR": t.TempDir()})
	token := login(t, client(srv), "13900000901").AccessToken
	img := filepath.Join(t.TempDir(), "photo.png")
	if err := os.WriteFile(img, pngOf(t, 24, 16), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "upload.mjs", srv.URL, token, img)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("browser upload: %v\n%s\n%s", err, out, stderr)
	}
	var got struct {
		Status                                 int
		URL, ContentType                       string
		Width, Height, ShownWidth, ShownHeight int
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("browser answered %q: %v", out, err)
	}
	if got.Status != 200 || !strings.HasPrefix(got.URL, "/media/") || got.ContentType != "image/png" ||
		got.Width != 24 || got.Height != 16 || got.ShownWidth != 24 || got.ShownHeight != 16 {
		t.Errorf("uploaded from the browser: %s", out)
	}
}
