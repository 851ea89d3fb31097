package media_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

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

// memLimiter allows limit events per key, forever (time does not pass in these tests);
// a refused event waits retryAfter.
type memLimiter struct {
	mu         sync.Mutex
	counts     map[string]int
	retryAfter time.Duration
	err        error
}

func (l *memLimiter) Allow(_ context.Context, key string, limit int, _ time.Duration) (bool, time.Duration, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return false, 0, l.err
	}
	if l.counts == nil {
		l.counts = map[string]int{}
	}
	if l.counts[key] >= limit {
		return false, l.retryAfter, nil
	}
	l.counts[key]++
	return true, 0, nil
}

var _ media.RateLimiter = (*memLimiter)(nil)

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
