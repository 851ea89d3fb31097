package regentest

import (
	"errors"
	"maps"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/regen"
)

// Counts is what an observer counted.
type Counts struct {
	// Changes counts the new generations seen.
	Changes int
	// Rebuilt and Failed count the runs of each rebuilder that succeeded and that failed
	// (rebuilders never run are absent).
	Rebuilt, Failed map[string]int
	// Took sums how long each rebuilder's runs took, succeeded or failed.
	Took map[string]time.Duration
}

// Observer is an observer and a way to read what it counted.
type Observer struct {
	regen.Observer
	Counts func(t *testing.T) Counts
}

// ObserverContract is what every regen.Observer must do, as its doc comments say: count
// the generations seen, and each rebuilder's runs by outcome with the time they took.
// newObserver returns an observer of its own.
func ObserverContract(t *testing.T, newObserver func(t *testing.T) Observer) {
	t.Helper()
	t.Run("generations and rebuilds are counted by rebuilder and outcome", func(t *testing.T) {
		t.Parallel()
		o := newObserver(t)
		if got := o.Counts(t); got.Changes != 0 || len(got.Rebuilt)+len(got.Failed)+len(got.Took) != 0 {
			t.Fatalf("a new observer counted %+v, want nothing", got)
		}
		broken := errors.New("database down")
		o.GenerationChanged()
		o.Rebuilt("shops", nil, time.Second)
		o.Rebuilt("feeds", broken, 250*time.Millisecond)
		o.GenerationChanged()
		o.Rebuilt("shops", broken, 500*time.Millisecond)
		o.Rebuilt("shops", nil, 2*time.Second)
		o.Rebuilt("feeds", nil, 250*time.Millisecond)
		want := Counts{Changes: 2, Rebuilt: map[string]int{"shops": 2, "feeds": 1}, Failed: map[string]int{"shops": 1, "feeds": 1},
			Took: map[string]time.Duration{"shops": 3500 * time.Millisecond, "feeds": 500 * time.Millisecond}}
		got := o.Counts(t)
		if got.Changes != want.Changes || !maps.Equal(got.Rebuilt, want.Rebuilt) || !maps.Equal(got.Failed, want.Failed) || !maps.Equal(got.Took, want.Took) {
			t.Fatalf("counted %+v, want %+v", got, want)
		}
	})
}

// MemObserver is an in-memory regen.Observer: it counts what it is told.
type MemObserver struct {
	mu     sync.Mutex
	counts Counts
}

var _ regen.Observer = (*MemObserver)(nil)

// GenerationChanged implements regen.Observer.
func (o *MemObserver) GenerationChanged() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.counts.Changes++
}

// Rebuilt implements regen.Observer.
func (o *MemObserver) Rebuilt(name string, err error, took time.Duration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	c := &o.counts
	if c.Rebuilt == nil {
		c.Rebuilt, c.Failed, c.Took = map[string]int{}, map[string]int{}, map[string]time.Duration{}
	}
	if err != nil {
		c.Failed[name]++
	} else {
		c.Rebuilt[name]++
	}
	c.Took[name] += took
}

// Counts returns what the observer counted.
func (o *MemObserver) Counts() Counts {
	o.mu.Lock()
	defer o.mu.Unlock()
	return Counts{Changes: o.counts.Changes, Rebuilt: maps.Clone(o.counts.Rebuilt), Failed: maps.Clone(o.counts.Failed),
		Took: maps.Clone(o.counts.Took)}
}
