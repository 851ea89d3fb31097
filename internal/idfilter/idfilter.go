// Package idfilter keeps, per process, a Bloom filter of the ids that exist of one kind
// (shops, vouchers), so that reads of ids that do not exist — a flood of made-up ids,
// the "cache penetration" of the hmdp documents — are answered "not found" before the
// cache and the database are asked. A Bloom filter never says "absent" for an id it was
// given; it may say "present" for one it was not (FalsePositiveRate), which then costs
// the read it would have cost anyway (and the null cache holds it).
//
// It is built from the database at start and rebuilt every RebuildInterval (dropping
// deleted ids); ids created meanwhile are added by the process that creates them
// before it announces the change, and by every other process when the announcement (the
// read cache's invalidation broadcast) reaches it. When announcements may have been
// missed (the broadcast's subscription was re-established), it is rebuilt at once.
package idfilter

import (
	"context"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bits-and-blooms/bloom/v3"
)

// Config tunes a filter.
type Config struct {
	// FalsePositiveRate is the share of absent ids the filter lets through (default 0.001).
	FalsePositiveRate float64
	// RebuildInterval is how often the filter is rebuilt from the database (0: only at
	// start and when announcements may have been missed).
	RebuildInterval time.Duration
}

// Source lists every id that exists now.
type Source func(ctx context.Context) ([]int64, error)

// Filter is one kind's filter. The zero value is not usable: use New. Until its first
// build it lets every id through.
type Filter struct {
	name   string // the read cache's name: announcements are "<name>:<id>"
	cfg    Config
	source Source
	log    *slog.Logger

	mu       sync.RWMutex
	f        *bloom.BloomFilter // nil until built
	building bool
	added    []int64 // ids added while a build runs, added to its result too

	rebuild  chan struct{}
	filtered atomic.Int64
}

// New returns a filter of the ids source lists, announced as "<name>:<id>".
func New(name string, cfg Config, source Source, log *slog.Logger) *Filter {
	if cfg.FalsePositiveRate <= 0 || cfg.FalsePositiveRate >= 1 {
		cfg.FalsePositiveRate = 0.001
	}
	if log == nil {
		log = slog.Default()
	}
	return &Filter{name: name, cfg: cfg, source: source, log: log, rebuild: make(chan struct{}, 1)}
}

// MayExist says whether id may exist: false only for an id the filter knows was never
// created (as of its last build and the announcements since).
func (f *Filter) MayExist(id int64) bool {
	f.mu.RLock()
	may := f.f == nil || f.f.Test(key(id)) // Add writes the same bits under the write lock
	f.mu.RUnlock()
	if !may {
		f.filtered.Add(1)
	}
	return may
}

// MayExistString is MayExist of a decimal id; an id that is not a number may not exist.
func (f *Filter) MayExistString(id string) bool {
	n, err := strconv.ParseInt(id, 10, 64)
	return err == nil && f.MayExist(n)
}

// Filtered is how many reads the filter answered "absent" since it was made.
func (f *Filter) Filtered() int64 { return f.filtered.Load() }

// Add records a new id. Call it after the id is committed and before it is announced.
func (f *Filter) Add(id int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.f != nil {
		f.f.Add(key(id))
	}
	if f.building {
		f.added = append(f.added, id)
	}
}

// Announced takes one announcement of the read cache's broadcast: "<name>:<id>" adds
// the id, "" (announcements may have been missed) asks for a rebuild; others are
// ignored. It is quick, as the broadcast requires.
func (f *Filter) Announced(key string) {
	if key == "" {
		f.requestRebuild()
		return
	}
	rest, ok := strings.CutPrefix(key, f.name+":")
	if !ok {
		return
	}
	if id, err := strconv.ParseInt(rest, 10, 64); err == nil {
		f.Add(id)
	}
}

func (f *Filter) requestRebuild() {
	select {
	case f.rebuild <- struct{}{}:
	default: // one is pending already
	}
}

// Build (re)builds the filter from the source; on error the filter keeps what it had.
// It returns how many ids it holds.
func (f *Filter) Build(ctx context.Context) (int, error) {
	f.mu.Lock()
	f.building, f.added = true, nil
	f.mu.Unlock()
	ids, err := f.source(ctx)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.building = false
	if err != nil {
		f.added = nil
		return 0, err
	}
	// Sized for growth: twice what exists now, at least 10,000.
	bf := bloom.NewWithEstimates(uint(max(2*len(ids), 10_000)), f.cfg.FalsePositiveRate)
	for _, id := range ids {
		bf.Add(key(id))
	}
	for _, id := range f.added {
		bf.Add(key(id))
	}
	f.f, f.added = bf, nil
	return len(ids), nil
}

// Run rebuilds the filter every RebuildInterval and whenever announcements may have been
// missed, until ctx ends.
func (f *Filter) Run(ctx context.Context) {
	var tick <-chan time.Time
	if f.cfg.RebuildInterval > 0 {
		t := time.NewTicker(f.cfg.RebuildInterval)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick:
		case <-f.rebuild:
		}
		if n, err := f.Build(ctx); err != nil {
			if ctx.Err() == nil {
				f.log.Warn("cannot rebuild the id filter; it keeps what it had", slog.String("filter", f.name), slog.Any("error", err))
			}
		} else {
			f.log.Debug("id filter rebuilt", slog.String("filter", f.name), slog.Int("ids", n))
		}
	}
}

func key(id int64) []byte {
	var b [8]byte
	for i := range b {
		b[i] = byte(id >> (8 * i))
	}
	return b[:]
}
