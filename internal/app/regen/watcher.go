// Package regen notices when Redis comes back empty — restarted without persistence,
// flushed, failed over to an empty replica — and rebuilds what Redis derives from the
// database, on every node, without a restart.
//
// A generation marker (one key with a random value) lives in Redis. Each node remembers
// the generation its derived structures belong to. When the marker is gone, the first
// node to notice sets a new one; every node that sees a value other than its own runs
// the registered rebuilders and then takes the new value as its own. Rebuilders must be
// idempotent: several nodes run them for one generation, and a node runs again those
// that failed.
package regen

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"time"
)

// Marker is the generation marker in Redis.
type Marker interface {
	// Read returns the marker's value, "" when Redis holds none.
	Read(ctx context.Context) (string, error)
	// Claim sets a new random value unless Redis holds one, and returns the value Redis
	// holds afterwards: the one this call set, or the one another node set first.
	Claim(ctx context.Context) (string, error)
}

// Observer counts what the watcher does (for metrics). Its methods must be cheap.
type Observer interface {
	// GenerationChanged records that this node saw Redis in a new generation.
	GenerationChanged()
	// Rebuilt records one rebuilder's run; err is nil when it succeeded.
	Rebuilt(name string, err error, took time.Duration)
}

// Config tunes a Watcher.
type Config struct {
	// Interval is how often the marker is read (0: DefaultInterval).
	Interval time.Duration
	Log      *slog.Logger
	// Observer is told of new generations and rebuilds; nil: nobody.
	Observer Observer
	// Tick returns a channel ticking every d and a function that stops it; nil uses a
	// time.Ticker. Tests pass a channel they tick by hand.
	Tick func(d time.Duration) (<-chan time.Time, func())
}

// DefaultInterval is Config.Interval's default.
const DefaultInterval = time.Second

// Rebuilder puts one derived structure back from the source of truth. It must be
// idempotent and safe to run while the structure is in use.
type Rebuilder func(ctx context.Context) error

// Watcher watches the generation marker and runs the rebuilders when it changes.
type Watcher struct {
	marker Marker
	cfg    Config

	mu         sync.Mutex
	rebuilders map[string]Rebuilder
	// current is the generation this node's derived structures belong to.
	current string
	// target is the newer generation being rebuilt for, and done the rebuilders that
	// succeeded for it.
	target string
	done   map[string]bool
	// failing is set while reading the marker fails, to log once per outage.
	failing bool
}

// New returns a watcher of marker.
func New(marker Marker, cfg Config) (*Watcher, error) {
	if marker == nil {
		return nil, errors.New("regen: no marker")
	}
	if cfg.Interval < 0 {
		return nil, fmt.Errorf("regen: negative interval %s", cfg.Interval)
	}
	if cfg.Interval == 0 {
		cfg.Interval = DefaultInterval
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.Observer == nil {
		cfg.Observer = nopObserver{}
	}
	if cfg.Tick == nil {
		cfg.Tick = func(d time.Duration) (<-chan time.Time, func()) {
			t := time.NewTicker(d)
			return t.C, t.Stop
		}
	}
	return &Watcher{marker: marker, cfg: cfg, rebuilders: map[string]Rebuilder{}}, nil
}

// Register adds a rebuilder under name (replacing one of that name). Rebuilders
// registered after a generation change started run from the next check on.
func (w *Watcher) Register(name string, fn Rebuilder) {
	if fn == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.rebuilders[name] = fn
}

// Start makes sure Redis holds a marker and takes its generation as this node's. Call it
// before building the derived structures at start: a wipe during the build then shows
// as a missing marker at the first check.
func (w *Watcher) Start(ctx context.Context) (string, error) {
	gen, err := w.marker.Claim(ctx)
	if err != nil {
		return "", fmt.Errorf("set redis generation marker: %w", err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.current = gen
	return gen, nil
}

// Generation returns the generation this node's derived structures belong to.
func (w *Watcher) Generation() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.current
}

// Check reads the marker once. When it is gone it sets a new one; when the generation
// is not this node's, it runs the rebuilders (those that have not succeeded for it yet)
// and, once all have, takes the generation as its own. It reports whether the node is
// now in Redis's generation.
func (w *Watcher) Check(ctx context.Context) (bool, error) {
	gen, err := w.marker.Read(ctx)
	if err == nil && gen == "" {
		if gen, err = w.marker.Claim(ctx); err == nil {
			w.cfg.Log.Warn("redis came back empty (its generation marker is gone): rebuilding what it derives from the database",
				slog.String("generation", short(gen)))
		}
	}
	if err != nil {
		w.readFailed(err)
		return false, err
	}
	w.mu.Lock()
	if w.failing {
		w.failing = false
		w.cfg.Log.Info("redis generation marker readable again")
	}
	if gen == w.current {
		w.mu.Unlock()
		return true, nil
	}
	if gen != w.target {
		w.target, w.done = gen, map[string]bool{}
		w.cfg.Observer.GenerationChanged()
		w.cfg.Log.Info("redis is in a new generation: rebuilding derived structures",
			slog.String("from", short(w.current)), slog.String("to", short(gen)))
	}
	todo := map[string]Rebuilder{}
	for name, fn := range w.rebuilders {
		if !w.done[name] {
			todo[name] = fn
		}
	}
	w.mu.Unlock()

	errs := w.rebuild(ctx, todo)

	w.mu.Lock()
	defer w.mu.Unlock()
	if w.target != gen {
		return false, errors.Join(mapValues(errs)...) // a newer check moved on meanwhile
	}
	for name := range todo {
		if _, failed := errs[name]; !failed {
			w.done[name] = true
		}
	}
	if len(errs) > 0 {
		return false, errors.Join(mapValues(errs)...)
	}
	w.current, w.target, w.done = gen, "", nil
	w.cfg.Log.Info("derived structures rebuilt for the new redis generation", slog.String("generation", short(gen)))
	return true, nil
}

// rebuild runs the rebuilders side by side and returns the errors by name.
func (w *Watcher) rebuild(ctx context.Context, todo map[string]Rebuilder) map[string]error {
	var (
		mu   sync.Mutex
		wg   sync.WaitGroup
		errs = map[string]error{}
	)
	for name, fn := range todo {
		wg.Go(func() {
			start := time.Now()
			err := safely(ctx, fn)
			took := time.Since(start)
			w.cfg.Observer.Rebuilt(name, err, took)
			if err != nil {
				w.cfg.Log.Error("cannot rebuild a derived redis structure; retrying at the next check",
					slog.String("structure", name), slog.Any("error", err))
				mu.Lock()
				errs[name] = fmt.Errorf("rebuild %s: %w", name, err)
				mu.Unlock()
				return
			}
			w.cfg.Log.Info("derived redis structure rebuilt", slog.String("structure", name), slog.Duration("took", took))
		})
	}
	wg.Wait()
	return errs
}

// safely runs fn, turning a panic into an error so one rebuilder cannot stop the others.
func safely(ctx context.Context, fn Rebuilder) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return fn(ctx)
}

func (w *Watcher) readFailed(err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.failing {
		w.failing = true
		w.cfg.Log.Warn("cannot read the redis generation marker; retrying", slog.Any("error", err))
	}
}

// Run checks the marker every interval until ctx ends.
func (w *Watcher) Run(ctx context.Context) {
	ticks, stop := w.cfg.Tick(w.cfg.Interval)
	defer stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticks:
			_, _ = w.Check(ctx) // Check logs; the next tick retries
		}
	}
}

// short is enough of a generation value to tell generations apart in logs.
func short(gen string) string {
	if len(gen) > 8 {
		return gen[:8]
	}
	return gen
}

func mapValues(m map[string]error) []error {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]error, len(names))
	for i, n := range names {
		out[i] = m[n]
	}
	return out
}

type nopObserver struct{}

func (nopObserver) GenerationChanged()                   {}
func (nopObserver) Rebuilt(string, error, time.Duration) {}
