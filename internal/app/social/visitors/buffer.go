package visitors

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// visitKey names one HyperLogLog: a day, site-wide (shop 0) or of a shop.
type visitKey struct {
	day  string
	shop int64
}

// maxBufferedVisits bounds the buffer; visits beyond it (Redis unreachable for long) are
// not counted.
const maxBufferedVisits = 100_000

// visitBuffer gathers visits and writes them in batches.
type visitBuffer struct {
	visitors Visitors
	log      *slog.Logger
	loc      *time.Location

	mu      sync.Mutex
	pending map[visitKey]map[string]struct{}
	size    int
	dropped int

	flushMu sync.Mutex // one flush at a time
	done    chan struct{}
	stopped chan struct{}
}

func startVisitBuffer(v Visitors, loc *time.Location, every time.Duration, log *slog.Logger) *visitBuffer {
	b := &visitBuffer{
		visitors: v, log: log, loc: loc, pending: map[visitKey]map[string]struct{}{},
		done: make(chan struct{}), stopped: make(chan struct{}),
	}
	go func() {
		defer close(b.stopped)
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-b.done:
				return
			case <-tick.C:
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				if err := b.flush(ctx); err != nil {
					b.log.Warn("cannot write visitor counts; retrying", slog.Any("error", err))
				}
				cancel()
			}
		}
	}()
	return b
}

func (b *visitBuffer) add(day time.Time, shopID int64, visitor string) {
	d := day.Format("2006-01-02")
	b.mu.Lock()
	defer b.mu.Unlock()
	keys := []visitKey{{day: d}}
	if shopID > 0 {
		keys = append(keys, visitKey{day: d, shop: shopID})
	}
	for _, k := range keys {
		set := b.pending[k]
		if set == nil {
			set = map[string]struct{}{}
			b.pending[k] = set
		}
		if _, ok := set[visitor]; ok {
			continue
		}
		if b.size >= maxBufferedVisits {
			b.dropped++
			continue
		}
		set[visitor] = struct{}{}
		b.size++
	}
}

// flush writes every buffered visit; what fails to be written stays buffered.
func (b *visitBuffer) flush(ctx context.Context) error {
	b.flushMu.Lock()
	defer b.flushMu.Unlock()
	b.mu.Lock()
	batch, dropped := b.pending, b.dropped
	b.pending, b.size, b.dropped = map[visitKey]map[string]struct{}{}, 0, 0
	b.mu.Unlock()
	if dropped > 0 {
		b.log.Warn("visitor buffer full; visits not counted", slog.Int("dropped", dropped))
	}
	var failed error
	for k, set := range batch {
		if failed != nil {
			b.putBack(k, set)
			continue
		}
		day, _ := time.ParseInLocation("2006-01-02", k.day, b.loc)
		visitors := make([]string, 0, len(set))
		for v := range set {
			visitors = append(visitors, v)
		}
		if err := b.visitors.Record(ctx, day, k.shop, visitors); err != nil {
			failed = err
			b.putBack(k, set)
		}
	}
	return failed
}

func (b *visitBuffer) putBack(k visitKey, set map[string]struct{}) {
	b.mu.Lock()
	defer b.mu.Unlock()
	cur := b.pending[k]
	if cur == nil {
		cur = map[string]struct{}{}
		b.pending[k] = cur
	}
	for v := range set {
		if _, ok := cur[v]; ok {
			continue
		}
		if b.size >= maxBufferedVisits {
			b.dropped++
			continue
		}
		cur[v] = struct{}{}
		b.size++
	}
}

// stop ends the background flushes and writes what is left.
func (b *visitBuffer) stop() {
	select {
	case <-b.done:
		return
	default:
		close(b.done)
	}
	<-b.stopped
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := b.flush(ctx); err != nil {
		b.log.Warn("visitor counts lost at shutdown", slog.Any("error", err))
	}
}
