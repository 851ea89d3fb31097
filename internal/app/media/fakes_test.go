package media_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/app/auth/authtest"
	"github.com/dealspot/dealspot/internal/app/contracttest"
	"github.com/dealspot/dealspot/internal/app/media"
	"github.com/dealspot/dealspot/internal/app/media/mediatest"
)

// memStore is an in-memory media.Store.
type memStore struct {
	mu    sync.Mutex
	files map[string]stored
	names []string
}

type stored struct {
	contentType string
	data        []byte
}

func (s *memStore) Put(_ context.Context, name, contentType string, data []byte) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.files == nil {
		s.files = map[string]stored{}
	}
	if _, taken := s.files[name]; taken {
		return "", errors.New("name taken")
	}
	s.files[name] = stored{contentType: contentType, data: append([]byte(nil), data...)}
	s.names = append(s.names, name)
	return "/media/" + name, nil
}

func (s *memStore) Has(_ context.Context, url string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	name, ok := strings.CutPrefix(url, "/media/")
	_, found := s.files[name]
	return ok && found, nil
}

func (s *memStore) Delete(_ context.Context, url string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	name, ok := strings.CutPrefix(url, "/media/")
	if _, found := s.files[name]; !ok || !found {
		return false, nil
	}
	delete(s.files, name)
	return true, nil
}

// last returns the name and file stored last.
func (s *memStore) last(t testing.TB) (string, stored) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.names) == 0 {
		t.Fatal("nothing stored")
	}
	name := s.names[len(s.names)-1]
	return name, s.files[name]
}

func (s *memStore) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.names)
}

// limiter is authtest's in-memory rate limiter on a clock of the test's, with a failure
// to inject. media.RateLimiter is auth.RateLimiter's shape: the Redis limiter serves
// both, and authtest.RateLimiterContract holds it and this fake alike.
type limiter struct {
	*authtest.MemRateLimiter
	clock *contracttest.Clock
	mu    sync.Mutex
	err   error
}

var (
	_ media.RateLimiter = auth.RateLimiter(nil)
	_ media.RateLimiter = (*authtest.MemRateLimiter)(nil)
	_ media.RateLimiter = (*limiter)(nil)
)

func newLimiter() *limiter {
	clock := contracttest.NewClock()
	return &limiter{MemRateLimiter: authtest.NewMemRateLimiter(clock.Now), clock: clock}
}

// Allow fails with the injected error, if any, or asks the in-memory limiter.
func (l *limiter) Allow(ctx context.Context, key string, limit int, window time.Duration) (bool, time.Duration, error) {
	l.mu.Lock()
	err := l.err
	l.mu.Unlock()
	if err != nil {
		return false, 0, err
	}
	return l.MemRateLimiter.Allow(ctx, key, limit, window)
}

// fail makes every Allow fail with err.
func (l *limiter) fail(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.err = err
}

// countingReader yields n zero bytes after prefix and counts what was read.
type countingReader struct {
	prefix []byte
	n      int64
	read   int64
}

func (r *countingReader) Read(p []byte) (int, error) {
	total := int64(len(r.prefix)) + r.n
	if r.read >= total {
		return 0, io.EOF
	}
	if rest := total - r.read; int64(len(p)) > rest {
		p = p[:rest]
	}
	k := 0
	if r.read < int64(len(r.prefix)) {
		k = copy(p, r.prefix[r.read:])
	}
	clear(p[k:])
	r.read += int64(len(p))
	return len(p), nil
}

// The in-memory record of uploads meets the contract of the database's.
func TestMemUploadsContract(t *testing.T) {
	t.Parallel()
	mediatest.UploadsContract(t, func(*testing.T) mediatest.UploadStore {
		m := &mediatest.MemUploads{}
		return mediatest.UploadStore{Uploads: m, Uses: map[string]func(*testing.T, string){
			"marked": func(_ *testing.T, url string) { m.Use(url) },
		}}
	})
}

// The in-memory store meets the contract of the one on disk.
func TestMemStoreContract(t *testing.T) {
	t.Parallel()
	mediatest.StoreContract(t, func(*testing.T) mediatest.Store {
		s := &memStore{}
		return mediatest.Store{Store: s, Read: func(_ *testing.T, url string) ([]byte, string, bool) {
			s.mu.Lock()
			defer s.mu.Unlock()
			f, ok := s.files[strings.TrimPrefix(url, "/media/")]
			return f.data, f.contentType, ok
		}}
	})
}
