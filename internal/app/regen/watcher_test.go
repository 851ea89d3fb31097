package regen_test

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/regen"
	"github.com/dealspot/dealspot/internal/app/regen/regentest"
)

// node is one server: a watcher with counting rebuilders.
type node struct {
	w    *regen.Watcher
	obs  *regentest.MemObserver
	tick chan time.Time
	runs map[string]int
	mu   sync.Mutex
	fail map[string]int // rebuilder name → failures still to return
}

func newNode(t *testing.T, m regen.Marker, names ...string) *node {
	t.Helper()
	n := &node{obs: &regentest.MemObserver{},
		tick: make(chan time.Time), runs: map[string]int{}, fail: map[string]int{}}
	w, err := regen.New(m, regen.Config{
		Interval: time.Hour, // only the fake clock ticks
		Log:      slog.New(slog.DiscardHandler),
		Observer: n.obs,
		Tick:     func(time.Duration) (<-chan time.Time, func()) { return n.tick, func() {} },
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		w.Register(name, func(context.Context) error {
			n.mu.Lock()
			defer n.mu.Unlock()
			n.runs[name]++
			if n.fail[name] > 0 {
				n.fail[name]--
				return errors.New("database unavailable")
			}
			return nil
		})
	}
	n.w = w
	return n
}

func (n *node) runCount(name string) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.runs[name]
}

func TestWatcherRebuildsOncePerGenerationOnEveryNode(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m := &regentest.MemMarker{}
	a, b := newNode(t, m, "geo", "follows"), newNode(t, m, "geo", "follows")
	genA, err := a.w.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	genB, _ := b.w.Start(ctx)
	if genA == "" || genA != genB {
		t.Fatalf("two nodes starting on one Redis: generations %q and %q, want one", genA, genB)
	}
	// Nothing happened: no rebuild.
	for _, n := range []*node{a, b} {
		if ok, err := n.w.Check(ctx); !ok || err != nil {
			t.Fatalf("check without a wipe: %v, %v", ok, err)
		}
	}
	if a.runCount("geo")+b.runCount("geo") != 0 {
		t.Fatal("rebuilt without a wipe")
	}

	m.Wipe()
	// a notices first and sets the new marker; b sees the new value and rebuilds too.
	if ok, err := a.w.Check(ctx); !ok || err != nil {
		t.Fatalf("a's check after the wipe: %v, %v", ok, err)
	}
	if ok, err := b.w.Check(ctx); !ok || err != nil {
		t.Fatalf("b's check after the wipe: %v, %v", ok, err)
	}
	if m.Generations() != 2 {
		t.Errorf("%d markers set, want 2 (start, and one after the wipe)", m.Generations())
	}
	if a.w.Generation() != b.w.Generation() || a.w.Generation() == genA {
		t.Errorf("generations after the wipe: a %q, b %q (before %q)", a.w.Generation(), b.w.Generation(), genA)
	}
	for _, n := range []*node{a, b} {
		// Further checks change nothing.
		_, _ = n.w.Check(ctx)
		_, _ = n.w.Check(ctx)
		if n.runCount("geo") != 1 || n.runCount("follows") != 1 {
			t.Errorf("rebuilder runs %v, want each once", n.runs)
		}
		if changes := n.obs.Counts().Changes; changes != 1 {
			t.Errorf("observed %d generation changes, want 1", changes)
		}
	}
}

func TestWatcherRetriesOnlyTheRebuildersThatFailed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m := &regentest.MemMarker{}
	n := newNode(t, m, "geo", "follows")
	if _, err := n.w.Start(ctx); err != nil {
		t.Fatal(err)
	}
	before := n.w.Generation()
	n.fail["follows"] = 2
	m.Wipe()
	for i := range 2 {
		if ok, err := n.w.Check(ctx); ok || err == nil {
			t.Fatalf("check %d while follows fails: %v, %v; want not done and an error", i, ok, err)
		}
		if n.w.Generation() != before {
			t.Fatal("the node took the new generation before every rebuilder succeeded")
		}
	}
	if ok, err := n.w.Check(ctx); !ok || err != nil {
		t.Fatalf("third check: %v, %v", ok, err)
	}
	if n.runCount("geo") != 1 || n.runCount("follows") != 3 {
		t.Errorf("runs %v, want geo once and follows three times", n.runs)
	}
	c := n.obs.Counts()
	changes, ok, failed := c.Changes, c.Rebuilt, c.Failed
	if changes != 1 || ok["follows"] != 1 || failed["follows"] != 2 || ok["geo"] != 1 {
		t.Errorf("observed changes %d, rebuilds %v, failures %v", changes, ok, failed)
	}
}

func TestWatcherKeepsCheckingWhileRedisIsAway(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m := &regentest.MemMarker{}
	n := newNode(t, m, "geo")
	if _, err := n.w.Start(ctx); err != nil {
		t.Fatal(err)
	}
	m.SetDown(true)
	if _, err := n.w.Check(ctx); err == nil {
		t.Fatal("check with Redis away: no error")
	}
	// It comes back empty.
	m.Wipe()
	m.SetDown(false)
	if ok, err := n.w.Check(ctx); !ok || err != nil {
		t.Fatalf("check after Redis came back: %v, %v", ok, err)
	}
	if n.runCount("geo") != 1 {
		t.Fatalf("geo rebuilt %d times, want once", n.runCount("geo"))
	}
}

func TestWatcherRunsOnItsClock(t *testing.T) {
	t.Parallel()
	m := &regentest.MemMarker{}
	n := newNode(t, m, "geo")
	rebuilt := make(chan struct{}, 1)
	n.w.Register("signal", func(context.Context) error { rebuilt <- struct{}{}; return nil })
	ctx, cancel := context.WithCancel(context.Background())
	if _, err := n.w.Start(ctx); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); n.w.Run(ctx) }()

	m.Wipe()
	// Nothing happens before the clock ticks, however long we wait in real time.
	select {
	case <-rebuilt:
		t.Fatal("rebuilt before the clock ticked")
	case <-time.After(50 * time.Millisecond):
	}
	n.tick <- time.Now()
	select {
	case <-rebuilt:
	case <-time.After(30 * time.Second):
		t.Fatal("no rebuild after a tick following the wipe")
	}
	cancel()
	<-done
	if n.runCount("geo") != 1 {
		t.Errorf("geo rebuilt %d times, want once", n.runCount("geo"))
	}
}

func TestWatcherSurvivesAPanickingRebuilder(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m := &regentest.MemMarker{}
	n := newNode(t, m, "geo")
	n.w.Register("broken", func(context.Context) error { panic("boom") })
	if _, err := n.w.Start(ctx); err != nil {
		t.Fatal(err)
	}
	m.Wipe()
	if ok, err := n.w.Check(ctx); ok || err == nil {
		t.Fatalf("check with a panicking rebuilder: %v, %v; want an error", ok, err)
	}
	if n.runCount("geo") != 1 {
		t.Errorf("geo rebuilt %d times, want once despite the other rebuilder", n.runCount("geo"))
	}
}
