package seckill

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func TestSoldOutMarkIsRefreshedAheadByOneCaller(t *testing.T) {
	t.Parallel()
	clock := &fakeClock{t: time.Unix(1_700_000_000, 0)}
	b := newSoldOutBoard(10*time.Second, clock.now)
	const sale = 7
	if sold, _, _ := b.check(sale, 1); sold {
		t.Fatal("unknown sale reported sold out")
	}
	b.markSoldOut(sale, b.generation(sale), []int64{1, 2})
	sold, holder, refresh := b.check(sale, 1)
	if !sold || !holder || refresh {
		t.Fatalf("fresh mark: sold %v holder %v refresh %v", sold, holder, refresh)
	}
	if _, holder, _ := b.check(sale, 3); holder {
		t.Fatal("user 3 reported holding the voucher")
	}

	// At 80 % of the TTL exactly one of many concurrent callers is asked to refresh; all
	// of them are still answered from the mark.
	clock.advance(8 * time.Second)
	var refreshers, answered atomic.Int64
	var wg sync.WaitGroup
	for u := range int64(100) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sold, _, refresh := b.check(sale, u)
			if sold {
				answered.Add(1)
			}
			if refresh {
				refreshers.Add(1)
			}
		}()
	}
	wg.Wait()
	if answered.Load() != 100 || refreshers.Load() != 1 {
		t.Fatalf("%d answered from the mark, %d asked to refresh; want 100 and 1", answered.Load(), refreshers.Load())
	}
	// The refresh renews the mark; the next refresh is due 8 s later.
	b.markSoldOut(sale, b.generation(sale), []int64{1, 2})
	b.done(sale)
	clock.advance(5 * time.Second) // past the old mark's end
	if sold, _, refresh := b.check(sale, 1); !sold || refresh {
		t.Fatalf("renewed mark: sold %v refresh %v", sold, refresh)
	}

	// A refresh that never reports back lets the mark run out, and a later one may start.
	clock.advance(3 * time.Second)
	if _, _, refresh := b.check(sale, 1); !refresh {
		t.Fatal("no refresh asked for at 80 % of the renewed mark")
	}
	clock.advance(3 * time.Second)
	if sold, _, _ := b.check(sale, 1); sold {
		t.Fatal("mark still counts after its TTL")
	}
	clock.advance(staleWork)
	if !b.begin(sale) {
		t.Fatal("work that never finished blocks the sale for good")
	}
	b.done(sale)

	// Stock coming back drops the mark, and a mark computed before that is not applied.
	gen := b.generation(sale)
	b.stockBack(sale)
	b.markSoldOut(sale, gen, nil)
	if sold, _, _ := b.check(sale, 1); sold {
		t.Fatal("a mark computed before stock came back was applied")
	}
}
