// Package regentest holds the contracts of regen's ports, which every implementation
// runs: the Marker's (the Redis one and MemMarker) and the Observer's (the metrics and
// MemObserver), and those in-memory fakes, which the watcher's tests use.
package regentest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/dealspot/dealspot/internal/app/regen"
)

// MarkerStore is one store of the marker, as several nodes see it.
type MarkerStore struct {
	// New returns a marker on the store, as one node holds it.
	New func() regen.Marker
	// Wipe makes the store lose the marker, as Redis coming back empty.
	Wipe func(t *testing.T)
}

// MarkerContract is what every regen.Marker must do, as its doc comments say. newStore
// returns a store; the cases run one after another on it, each starting from a wipe.
func MarkerContract(t *testing.T, newStore func(t *testing.T) MarkerStore) {
	t.Helper()
	s := newStore(t)
	ctx := context.Background()
	read := func(t *testing.T, m regen.Marker) string {
		t.Helper()
		v, err := m.Read(ctx)
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		return v
	}
	claim := func(t *testing.T, m regen.Marker) string {
		t.Helper()
		v, err := m.Claim(ctx)
		if err != nil || v == "" {
			t.Fatalf("claim: %q, %v; want a value", v, err)
		}
		return v
	}
	t.Run("an empty store holds no marker", func(t *testing.T) {
		s.Wipe(t)
		if v := read(t, s.New()); v != "" {
			t.Fatalf("read of an empty store = %q, want none", v)
		}
	})
	t.Run("claim sets a value once; every node reads it", func(t *testing.T) {
		s.Wipe(t)
		a, b := s.New(), s.New()
		v := claim(t, a)
		if again := claim(t, b); again != v {
			t.Fatalf("second claim = %q, want the value held (%q)", again, v)
		}
		if got := read(t, b); got != v {
			t.Fatalf("read = %q, want %q", got, v)
		}
	})
	t.Run("nodes claiming together agree on one value", func(t *testing.T) {
		s.Wipe(t)
		got := make([]string, 8)
		var wg sync.WaitGroup
		for i := range got {
			m := s.New()
			wg.Add(1)
			go func() {
				defer wg.Done()
				v, err := m.Claim(ctx)
				if err != nil {
					t.Error(err)
				}
				got[i] = v
			}()
		}
		wg.Wait()
		for _, v := range got {
			if v == "" || v != got[0] {
				t.Fatalf("concurrent claims returned %q, want one value", got)
			}
		}
	})
	t.Run("after a wipe a claim sets a new value", func(t *testing.T) {
		s.Wipe(t)
		m := s.New()
		old := claim(t, m)
		s.Wipe(t)
		if v := read(t, m); v != "" {
			t.Fatalf("read after the wipe = %q, want none", v)
		}
		if next := claim(t, m); next == old {
			t.Fatalf("claim after the wipe = %q, the value before it", next)
		}
	})
}

// MemMarker is the marker of one in-memory store, shared by the nodes (watchers) given
// it. Its values are "gen-1", "gen-2" … in the order they are set.
type MemMarker struct {
	mu    sync.Mutex
	value string
	n     int
	down  bool
}

var _ regen.Marker = (*MemMarker)(nil)

// ErrDown is the error of a marker that is out of reach.
var ErrDown = errors.New("connection refused")

// Read implements regen.Marker.
func (m *MemMarker) Read(context.Context) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.down {
		return "", ErrDown
	}
	return m.value, nil
}

// Claim implements regen.Marker.
func (m *MemMarker) Claim(context.Context) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.down {
		return "", ErrDown
	}
	if m.value == "" {
		m.n++
		m.value = fmt.Sprintf("gen-%d", m.n)
	}
	return m.value, nil
}

// Wipe is the store coming back empty.
func (m *MemMarker) Wipe() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.value = ""
}

// SetDown makes every call fail (true) or work again (false).
func (m *MemMarker) SetDown(down bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.down = down
}

// Generations returns how many values have been set.
func (m *MemMarker) Generations() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.n
}
