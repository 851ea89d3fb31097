// Package localfs keeps uploaded images as files in one directory and serves them back
// under /media/. It implements media.Store.
//
// Only names media.Upload gives files are written or served: 32 lower-case hex digits
// and the extension of an accepted format. Anything else is refused by Put and is 404
// to the handler, so no request can reach another file, a directory listing or a file
// being written (those have temporary names).
package localfs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/dealspot/dealspot/internal/app/media"
)

// PathPrefix is where Handler serves the images.
const PathPrefix = "/media/"

// contentTypes are the stored formats, by extension.
var contentTypes = map[string]string{
	".jpg":  "image/jpeg",
	".png":  "image/png",
	".gif":  "image/gif",
	".webp": "image/webp",
}

// Store writes images under one directory.
type Store struct {
	dir       string
	urlPrefix string
}

var _ media.Store = (*Store)(nil)

// New returns a Store writing under dir (created if missing) whose images are served at
// urlPrefix + name; an empty urlPrefix means PathPrefix (this server's Handler). A
// prefix of another host (a CDN in front) must serve the same files.
func New(dir, urlPrefix string) (*Store, error) {
	if dir == "" {
		return nil, errors.New("media store: no directory")
	}
	if urlPrefix == "" {
		urlPrefix = PathPrefix
	}
	if !strings.HasSuffix(urlPrefix, "/") {
		return nil, fmt.Errorf("media store: URL prefix %q must end with /", urlPrefix)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("media store: %w", err)
	}
	return &Store{dir: dir, urlPrefix: urlPrefix}, nil
}

// Put implements media.Store: it writes data to a temporary file, syncs it and renames
// it to name, so a reader sees the whole image or none.
func (s *Store) Put(_ context.Context, name, contentType string, data []byte) (url string, err error) {
	if want, ok := typeOf(name); !ok || want != contentType {
		return "", fmt.Errorf("media store: refusing name %q for %s", name, contentType)
	}
	f, err := os.CreateTemp(s.dir, ".upload-*")
	if err != nil {
		return "", fmt.Errorf("media store: %w", err)
	}
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(data); err != nil {
		return "", fmt.Errorf("media store: write %s: %w", name, err)
	}
	if err = f.Chmod(0o644); err != nil {
		return "", fmt.Errorf("media store: %w", err)
	}
	if err = f.Sync(); err != nil {
		return "", fmt.Errorf("media store: sync %s: %w", name, err)
	}
	if err = f.Close(); err != nil {
		return "", fmt.Errorf("media store: close %s: %w", name, err)
	}
	if err = os.Rename(f.Name(), filepath.Join(s.dir, name)); err != nil {
		return "", fmt.Errorf("media store: %w", err)
	}
	return s.urlPrefix + name, nil
}

// Has implements media.Store: whether a file Put wrote is at url.
func (s *Store) Has(_ context.Context, url string) (bool, error) {
	name, ok := s.nameOf(url)
	if !ok {
		return false, nil
	}
	info, err := os.Stat(filepath.Join(s.dir, name))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("media store: %w", err)
	}
	return info.Mode().IsRegular(), nil
}

// Delete implements media.Store: it removes the file Put wrote for url.
func (s *Store) Delete(_ context.Context, url string) (bool, error) {
	name, ok := s.nameOf(url)
	if !ok {
		return false, nil
	}
	err := os.Remove(filepath.Join(s.dir, name))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("media store: delete %s: %w", name, err)
	}
	return true, nil
}

// nameOf returns the name of the file at url, one of the URLs Put returns.
func (s *Store) nameOf(url string) (string, bool) {
	name, ok := strings.CutPrefix(url, s.urlPrefix)
	if !ok {
		return "", false
	}
	if _, known := typeOf(name); !known {
		return "", false
	}
	return name, true
}

// typeOf returns the content type of a name Put accepts: 32 lower-case hex digits and
// a known extension.
func typeOf(name string) (string, bool) {
	base, ext, ok := strings.Cut(name, ".")
	if !ok || len(base) != 32 {
		return "", false
	}
	for _, c := range []byte(base) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return "", false
		}
	}
	ct, ok := contentTypes["."+ext]
	return ct, ok
}

// Handler serves GET and HEAD /media/{name} for the names Put writes, with headers that
// keep a browser from taking an image for anything else; every other path is 404.
func (s *Store) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name, ok := strings.CutPrefix(r.URL.Path, PathPrefix)
		ct, known := typeOf(name)
		if !ok || !known || r.URL.RawPath != "" {
			http.NotFound(w, r)
			return
		}
		f, err := os.Open(filepath.Join(s.dir, name))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		defer func() { _ = f.Close() }()
		info, err := f.Stat()
		if err != nil || !info.Mode().IsRegular() {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		h.Set("Content-Type", ct)
		h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
		// A name is never reused for other bytes.
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
		h.Set("ETag", `"`+name+`"`)
		http.ServeContent(w, r, name, info.ModTime(), f)
	})
}
