package seckill

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestUserClaimLimiterSlidesAndForgets(t *testing.T) {
	t.Parallel()
	l := newUserClaimLimiter(RateLimit{Max: 3, Window: time.Second})
	t0 := time.Unix(1_000, 0)
	for i := range 3 {
		if ok, _ := l.allow(1, t0.Add(time.Duration(i)*100*time.Millisecond)); !ok {
			t.Fatalf("claim %d refused", i)
		}
	}
	ok, wait := l.allow(1, t0.Add(500*time.Millisecond))
	if ok || wait != 500*time.Millisecond {
		t.Fatalf("4th claim in the window: ok %v, wait %s; want refused, 500ms", ok, wait)
	}
	if ok, _ := l.allow(65, t0.Add(500*time.Millisecond)); !ok {
		t.Fatal("another user was refused")
	}
	if ok, _ := l.allow(1, t0.Add(1001*time.Millisecond)); !ok {
		t.Fatal("a claim after the oldest left the window was refused")
	}
	// Users idle for a window are forgotten when their shard of the map is next used.
	l.allow(129, t0.Add(10*time.Second))
	n := 0
	for i := range l.shards {
		n += len(l.shards[i].claims)
	}
	if n != 1 {
		t.Fatalf("%d users remembered after a quiet window, want 1", n)
	}
	if newUserClaimLimiter(RateLimit{}) != nil {
		t.Fatal("a zero limit should turn the limiter off")
	}
}

func TestClaimBucketRefills(t *testing.T) {
	t.Parallel()
	t0 := time.Unix(1_000, 0)
	b := newClaimBucket(RateLimit{Max: 2, Window: time.Second}, t0)
	for i := range 2 {
		if ok, _ := b.take(t0); !ok {
			t.Fatalf("token %d refused", i)
		}
	}
	ok, wait := b.take(t0)
	if ok || wait < 499*time.Millisecond || wait > 501*time.Millisecond {
		t.Fatalf("empty bucket: ok %v, wait %s; want refused, ~500ms", ok, wait)
	}
	if ok, _ := b.take(t0.Add(500 * time.Millisecond)); !ok {
		t.Fatal("a refilled token was refused")
	}
	if ok, _ := b.take(t0.Add(10 * time.Second)); !ok {
		t.Fatal("refused after a long pause")
	}
	if ok, _ := b.take(t0.Add(10 * time.Second)); !ok {
		t.Fatal("the bucket should hold its capacity, not more, after a pause")
	}
	if ok, _ := b.take(t0.Add(10 * time.Second)); ok {
		t.Fatal("the bucket held more than its capacity")
	}
}

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
