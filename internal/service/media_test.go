package service_test

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dealspot/dealspot/internal/config"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/service"
)

// TestUploadedImagesAreServed uploads through the application and fetches the image
// back over HTTP, as a client would after uploadImage.
func TestUploadedImagesAreServed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv, n := startService(t, map[string]string{"MEDIA_DIR": dir, "UPLOAD_RATE_PER_USER": "2/1h"})
	var src bytes.Buffer
	if err := png.Encode(&src, image.NewGray(image.Rect(0, 0, 6, 4))); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	me := domain.Actor{UserID: 1, Role: domain.RoleUser}
	img, err := n.App.Commands.UploadImage.Handle(ctx, me, bytes.NewReader(src.Bytes()), int64(src.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if img.Width != 6 || img.Height != 4 || img.ContentType != "image/png" || path.Dir(img.URL) != "/media" {
		t.Fatalf("uploaded %+v", img)
	}
	if _, err := os.Stat(filepath.Join(dir, path.Base(img.URL))); err != nil {
		t.Fatalf("not under MEDIA_DIR: %v", err)
	}

	resp, err := http.Get(srv.URL + img.URL)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "image/png" ||
		resp.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Fatalf("GET %s: %d %v", img.URL, resp.StatusCode, resp.Header)
	}
	if m, err := png.Decode(bytes.NewReader(body)); err != nil || m.Bounds().Dx() != 6 {
		t.Fatalf("served image: %v", err)
	}
	// A worker's operational handler serves no images.
	rec := httptest.NewRecorder()
	n.OpsHandler.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, img.URL, nil))
	if rec.Code != http.StatusNotFound {
		t.Fatalf("OpsHandler GET %s: %d, want 404", img.URL, rec.Code)
	}

	// UPLOAD_RATE_PER_USER is counted in Redis.
	if _, err := n.App.Commands.UploadImage.Handle(ctx, me, bytes.NewReader(src.Bytes()), -1); err != nil {
		t.Fatal(err)
	}
	_, err = n.App.Commands.UploadImage.Handle(ctx, me, bytes.NewReader(src.Bytes()), -1)
	if code := domain.ErrorCode(err); code != domain.CodeRateLimited {
		t.Fatalf("third upload in the hour: %v, want RATE_LIMITED", err)
	}
}

func TestUnusableMediaDirStopsTheStart(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "not-a-dir")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(func(k string) string {
		return map[string]string{"DEALSPOT_DATA_DIR": t.TempDir(), "MEDIA_DIR": file}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	n, err := service.New(context.Background(), cfg, slog.New(slog.DiscardHandler))
	if err == nil {
		_ = n.Close()
		t.Fatal("started with a file as MEDIA_DIR")
	}
	if !strings.HasPrefix(err.Error(), "MEDIA_DIR: ") {
		t.Fatalf("error %q does not name MEDIA_DIR", err)
	}
}
