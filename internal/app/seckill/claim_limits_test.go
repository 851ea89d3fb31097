package seckill

import (
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
