package contracttest

import (
	"context"
	"errors"
	"sync"
	"testing"
)

// Load is what a read-through cache calls on a miss: the value, whether it exists, or an
// error.
type Load[V any] func(ctx context.Context) (v V, found bool, err error)

// ByIDCache is a read-through cache of values by id and the drop of a changed one: the
// shape of seckill.VoucherReader with seckill.VoucherInvalidator, and of shop.ShopCache
// with shop.Invalidator.
type ByIDCache[V any] struct {
	Get     func(ctx context.Context, id int64, load Load[V]) (V, bool, error)
	Changed func(ctx context.Context, id int64) error
}

// ByIDCacheContract is what such a cache must do, as the ports' doc comments say: a miss
// loads once and the answer is cached, "not found" included; a load's error is returned
// and not cached; a changed value is loaded again. newCache returns a cache (caches of
// one test may share their server); value makes a value of an id carrying a label, which
// label reads back.
func ByIDCacheContract[V any](t *testing.T, newCache func(t *testing.T) ByIDCache[V], value func(id int64, label string) V, label func(V) string) {
	t.Helper()
	for _, c := range []struct {
		name string
		run  func(t *testing.T, c byIDCase[V])
	}{
		{"a miss loads once and the answer is cached, not found included", byIDLoadsOnce[V]},
		{"a load's error is returned and not cached", byIDError[V]},
		{"a changed value is loaded again", byIDChanged[V]},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.run(t, byIDCase[V]{ByIDCache: newCache(t), value: value, label: label})
		})
	}
}

type byIDCase[V any] struct {
	ByIDCache[V]
	value func(id int64, label string) V
	label func(V) string
}

// source is a load that counts its calls and answers its value (found unless missing).
type source[V any] struct {
	mu      sync.Mutex
	calls   int
	v       V
	missing bool
	err     error
}

func (s *source[V]) load(context.Context) (V, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	return s.v, !s.missing && s.err == nil, s.err
}

func (s *source[V]) set(v V, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.v, s.err = v, err
}

func (s *source[V]) wantCalls(t *testing.T, want int) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.calls != want {
		t.Fatalf("load called %d times, want %d", s.calls, want)
	}
}

// want reads id through the cache and wants label (or, with label "", not found).
func (c byIDCase[V]) want(t *testing.T, id int64, s *source[V], label string) {
	t.Helper()
	v, found, err := c.Get(context.Background(), id, s.load)
	switch {
	case err != nil:
		t.Fatalf("get %d: %v", id, err)
	case label == "" && found:
		t.Fatalf("get %d = %+v, want not found", id, v)
	case label != "" && (!found || c.label(v) != label):
		t.Fatalf("get %d = %+v (found %v), want %q", id, v, found, label)
	}
}

func byIDLoadsOnce[V any](t *testing.T, c byIDCase[V]) {
	id := NewID()
	s := &source[V]{v: c.value(id, "first")}
	for range 3 {
		c.want(t, id, s, "first")
	}
	s.wantCalls(t, 1)
	missing := &source[V]{missing: true}
	other := NewID()
	for range 2 {
		c.want(t, other, missing, "")
	}
	missing.wantCalls(t, 1)
}

func byIDError[V any](t *testing.T, c byIDCase[V]) {
	id := NewID()
	broken := errors.New("database down")
	s := &source[V]{err: broken}
	if _, _, err := c.Get(context.Background(), id, s.load); !errors.Is(err, broken) {
		t.Fatalf("get with a failing load: %v, want its error", err)
	}
	s.set(c.value(id, "back"), nil)
	c.want(t, id, s, "back")
	s.wantCalls(t, 2)
}

func byIDChanged[V any](t *testing.T, c byIDCase[V]) {
	id := NewID()
	s := &source[V]{v: c.value(id, "old")}
	c.want(t, id, s, "old")
	s.set(c.value(id, "new"), nil)
	if err := c.Changed(context.Background(), id); err != nil {
		t.Fatalf("changed %d: %v", id, err)
	}
	c.want(t, id, s, "new")
	s.wantCalls(t, 2)
}

// MemByIDCache is the in-memory read-through cache of the fakes: a map of answers, "not
// found" included, until Forget; it passes ByIDCacheContract. Loads of one id are not
// coalesced.
type MemByIDCache[V any] struct {
	mu      sync.Mutex
	answers map[int64]memAnswer[V]
	copy    func(V) V
}

type memAnswer[V any] struct {
	v     V
	found bool
}

// NewMemByIDCache returns an empty cache that hands out copy(v) of what it holds (nil:
// v itself).
func NewMemByIDCache[V any](copy func(V) V) *MemByIDCache[V] {
	if copy == nil {
		copy = func(v V) V { return v }
	}
	return &MemByIDCache[V]{answers: map[int64]memAnswer[V]{}, copy: copy}
}

// Get reads id through the cache.
func (c *MemByIDCache[V]) Get(ctx context.Context, id int64, load func(ctx context.Context) (V, bool, error)) (V, bool, error) {
	c.mu.Lock()
	a, ok := c.answers[id]
	c.mu.Unlock()
	if ok {
		return c.copy(a.v), a.found, nil
	}
	var zero V
	if err := ctx.Err(); err != nil {
		return zero, false, err
	}
	v, found, err := load(ctx)
	if err != nil {
		return zero, false, err
	}
	c.mu.Lock()
	c.answers[id] = memAnswer[V]{c.copy(v), found}
	c.mu.Unlock()
	return v, found, nil
}

// Forget drops what the cache holds of id.
func (c *MemByIDCache[V]) Forget(id int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.answers, id)
}
