package queue_test

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/queue"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// runID keeps topic, queue and stream names of concurrent test runs apart on shared
// servers.
var runID = testsupport.RandomSuffix(6)

// namespace is unique per test and stable within it, so a test can close a queue and
// open another one on the same topics.
func namespace(t *testing.T) string {
	h := fnv.New32a()
	_, _ = h.Write([]byte(t.Name()))
	return fmt.Sprintf("t%s-%08x.", runID, h.Sum32())
}

// testLogger discards logs unless TEST_QUEUE_LOG names a level (debug, info, warn, error).
func testLogger() *slog.Logger {
	var level slog.Level
	switch strings.ToLower(os.Getenv("TEST_QUEUE_LOG")) {
	case "debug":
		level = slog.LevelDebug
	case "info":
		level = slog.LevelInfo
	case "warn":
		level = slog.LevelWarn
	case "error":
		level = slog.LevelError
	default:
		return slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
}

// testConfig is a configuration with short retry intervals for backend; the settings
// the service configures are those of its default configuration but for MaxRetries and
// ClaimIdle.
func testConfig(t *testing.T, backend string) queue.Config {
	return queue.Config{
		Backend:              backend,
		Namespace:            namespace(t),
		Shards:               16,
		BatchSize:            256,
		BatchWait:            5 * time.Millisecond,
		Workers:              2,
		MaxRetries:           3,
		RetryInitialInterval: 5 * time.Millisecond,
		RetryMaxInterval:     100 * time.Millisecond,
		ClaimIdle:            2 * time.Second,
		DrainTimeout:         5 * time.Second,
		KafkaPartitions:      8,
	}
}

// opener opens a queue for t; calls within one test share its topics. The queue is
// closed when the test ends.
type opener func(t *testing.T) *queue.Queue

// contract describes a backend to runContract.
type contract struct {
	open opener
	// durable: messages survive the queue that published them (all but memory).
	durable bool
	// depth: Depth reports the claims waiting.
	depth bool
}

// runContract is the behaviour every queue backend must have.
func runContract(t *testing.T, c contract) {
	t.Run("depth counts waiting claims and dead letters are counted", func(t *testing.T) {
		t.Parallel()
		ctx := context.Background()
		q := c.open(t)
		claims := makeClaims(5)
		publishAll(t, q, claims, 5)
		waiting := func() int64 {
			ds, err := q.Depth(ctx)
			if err != nil {
				t.Fatalf("depth: %v", err)
			}
			if !c.depth && len(ds) > 0 {
				t.Fatalf("depth %+v from a backend that reports none", ds)
			}
			n := int64(0)
			for _, d := range ds {
				n += d.Waiting
			}
			return n
		}
		if c.depth {
			waitUntil(t, 10*time.Second, func() bool { return waiting() == int64(len(claims)) },
				func() string { return fmt.Sprintf("depth %d, want %d", waiting(), len(claims)) })
		}
		rec := newRecorder()
		poison := claims[0].OrderID
		rec.fail = func(batch []domain.Claim) error {
			for _, c := range batch {
				if c.OrderID == poison {
					return errors.New("poison")
				}
			}
			return nil
		}
		startConsuming(t, q, rec)
		waitUntil(t, 60*time.Second, func() bool { return rec.deadCount() == 1 && rec.handledCount() == len(claims)-1 },
			func() string { return fmt.Sprintf("%d dead, %d handled", rec.deadCount(), rec.handledCount()) })
		if n := q.DeadLetters(); n != 1 {
			t.Errorf("DeadLetters = %d, want 1", n)
		}
		if c.depth {
			waitUntil(t, 10*time.Second, func() bool { return waiting() == 0 },
				func() string { return fmt.Sprintf("depth %d after consuming, want 0", waiting()) })
		}
	})

	t.Run("every published claim is handled once with its content", func(t *testing.T) {
		t.Parallel()
		q := c.open(t)
		rec := newRecorder()
		startConsuming(t, q, rec)
		claims := makeClaims(2000)
		publishAll(t, q, claims, 50)
		waitUntil(t, 60*time.Second, func() bool { return rec.handledCount() == len(claims) },
			func() string { return fmt.Sprintf("%d of %d claims handled", rec.handledCount(), len(claims)) })
		handled := rec.handledClaims()
		for _, want := range claims {
			got, ok := handled[want.OrderID]
			if !ok {
				t.Fatalf("order %d not handled", want.OrderID)
			}
			if got.UserID != want.UserID || got.VoucherID != want.VoucherID || !got.ClaimedAt.Equal(want.ClaimedAt) {
				t.Fatalf("order %d arrived as %+v, want %+v", want.OrderID, got, want)
			}
		}
		if n := rec.deadCount(); n != 0 {
			t.Fatalf("dead called %d times, want 0", n)
		}
		mean := logBatches(t, rec.batchSizes())
		if mean <= 1 {
			t.Fatalf("mean batch size %.2f, want > 1: claims are not batched", mean)
		}
	})

	t.Run("a backlog is consumed in large batches", func(t *testing.T) {
		t.Parallel()
		q := c.open(t)
		claims := makeClaims(1000)
		publishAll(t, q, claims, 20)
		rec := newRecorder()
		// Like a database transaction: while the workers are busy, batches fill.
		rec.fail = func([]domain.Claim) error {
			time.Sleep(5 * time.Millisecond)
			return nil
		}
		startConsuming(t, q, rec)
		waitUntil(t, 60*time.Second, func() bool { return rec.handledCount() == len(claims) },
			func() string { return fmt.Sprintf("%d of %d claims handled", rec.handledCount(), len(claims)) })
		if mean := logBatches(t, rec.batchSizes()); mean < 4 {
			t.Fatalf("mean batch size %.2f for a waiting backlog, want at least 4", mean)
		}
	})

	t.Run("a batch that failed is delivered again", func(t *testing.T) {
		t.Parallel()
		q := c.open(t)
		rec := newRecorder()
		var mu sync.Mutex
		seen := map[int64]bool{}
		rec.fail = func(claims []domain.Claim) error {
			mu.Lock()
			defer mu.Unlock()
			fresh := false
			for _, c := range claims {
				if !seen[c.OrderID] {
					fresh = true
					seen[c.OrderID] = true
				}
			}
			if fresh {
				return errors.New("database unavailable")
			}
			return nil
		}
		startConsuming(t, q, rec)
		claims := makeClaims(200)
		publishAll(t, q, claims, 10)
		waitUntil(t, 30*time.Second, func() bool { return rec.handledCount() == len(claims) },
			func() string { return fmt.Sprintf("%d of %d claims handled", rec.handledCount(), len(claims)) })
		for _, c := range claims {
			if n := rec.deliveryCount(c.OrderID); n < 2 {
				t.Fatalf("order %d handled %d times, want at least 2 (a failure, then a success)", c.OrderID, n)
			}
		}
		if n := rec.deadCount(); n != 0 {
			t.Fatalf("dead called %d times, want 0", n)
		}
	})

	t.Run("a poison claim is dead-lettered once and blocks nothing", func(t *testing.T) {
		t.Parallel()
		q := c.open(t)
		rec := newRecorder()
		claims := makeClaims(300)
		poison := claims[137].OrderID
		errPoison := errors.New("violates a constraint")
		rec.fail = func(claims []domain.Claim) error {
			for _, c := range claims {
				if c.OrderID == poison {
					return fmt.Errorf("insert orders: %w", errPoison)
				}
			}
			return nil
		}
		startConsuming(t, q, rec)
		publishAll(t, q, claims, 10)
		waitUntil(t, 30*time.Second, func() bool { return rec.handledCount() == len(claims)-1 && rec.deadCount() == 1 },
			func() string {
				return fmt.Sprintf("%d of %d claims handled, dead called %d times", rec.handledCount(), len(claims)-1, rec.deadCount())
			})
		time.Sleep(300 * time.Millisecond)
		dead := rec.deadCalls()
		if len(dead) != 1 {
			t.Fatalf("dead called %d times, want exactly once", len(dead))
		}
		if dead[0].claim != claims[137] {
			t.Fatalf("dead got %+v, want the poison claim %+v", dead[0].claim, claims[137])
		}
		if !errors.Is(dead[0].cause, errPoison) {
			t.Fatalf("dead cause %v does not wrap the handler's error", dead[0].cause)
		}
		if _, ok := rec.handledClaims()[poison]; ok {
			t.Fatal("poison claim reported as handled")
		}
	})

	t.Run("claims published while no consumer runs are consumed by a new queue", func(t *testing.T) {
		if !c.durable {
			t.Skip("the in-process queue keeps nothing once closed")
		}
		t.Parallel()
		q1 := c.open(t)
		claims := makeClaims(100)
		publishAll(t, q1, claims, 5)
		if err := q1.Close(); err != nil {
			t.Fatalf("close: %v", err)
		}
		q2 := c.open(t)
		rec := newRecorder()
		startConsuming(t, q2, rec)
		waitUntil(t, 30*time.Second, func() bool { return rec.handledCount() == len(claims) },
			func() string { return fmt.Sprintf("%d of %d claims handled", rec.handledCount(), len(claims)) })
	})

	t.Run("close finishes and acknowledges the batch in hand", func(t *testing.T) {
		if !c.durable {
			t.Skip("the in-process queue keeps nothing once closed")
		}
		t.Parallel()
		q1 := c.open(t)
		rec1 := newRecorder()
		started := make(chan struct{})
		release := make(chan struct{})
		var once sync.Once
		rec1.fail = func([]domain.Claim) error {
			once.Do(func() { close(started) })
			<-release
			return nil
		}
		startConsuming(t, q1, rec1)
		claims := makeClaims(50)
		publishAll(t, q1, claims, 5)
		select {
		case <-started:
		case <-time.After(20 * time.Second):
			t.Fatal("no batch started")
		}
		closed := make(chan error, 1)
		go func() { closed <- q1.Close() }()
		time.Sleep(100 * time.Millisecond)
		close(release)
		select {
		case err := <-closed:
			if err != nil {
				t.Fatalf("close: %v", err)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("close did not return")
		}
		first := rec1.handledClaims()
		if len(first) == 0 {
			t.Fatal("the batch in hand was not finished")
		}

		q2 := c.open(t)
		rec2 := newRecorder()
		startConsuming(t, q2, rec2)
		marker := makeClaims(1)
		publishAll(t, q2, marker, 1)
		all := append(slices.Clone(claims), marker...)
		waitUntil(t, 30*time.Second, func() bool {
			got := rec2.handledClaims()
			for _, c := range all {
				if _, ok := first[c.OrderID]; !ok {
					if _, ok := got[c.OrderID]; !ok {
						return false
					}
				}
			}
			return true
		}, func() string { return fmt.Sprintf("%d+%d of %d handled", len(first), rec2.handledCount(), len(all)) })
		time.Sleep(300 * time.Millisecond)
		for id := range first {
			if n := rec2.deliveryCount(id); n > 0 {
				t.Fatalf("order %d was handled and acknowledged before close, yet delivered again %d times", id, n)
			}
		}
	})
}

// recorder is a handle/dead pair that remembers what it saw.
type recorder struct {
	mu         sync.Mutex
	handled    map[int64]domain.Claim
	deliveries map[int64]int
	batches    []int
	dead       []deadCall
	// fail, when set, decides the outcome of a batch; it may be called concurrently.
	fail func(claims []domain.Claim) error
}

type deadCall struct {
	claim domain.Claim
	cause error
}

func newRecorder() *recorder {
	return &recorder{handled: map[int64]domain.Claim{}, deliveries: map[int64]int{}}
}

func (r *recorder) handle(_ context.Context, claims []domain.Claim) error {
	r.mu.Lock()
	r.batches = append(r.batches, len(claims))
	for _, c := range claims {
		r.deliveries[c.OrderID]++
	}
	fail := r.fail
	r.mu.Unlock()
	if fail != nil {
		if err := fail(claims); err != nil {
			return err
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range claims {
		r.handled[c.OrderID] = c
	}
	return nil
}

func (r *recorder) deadFn(_ context.Context, c domain.Claim, cause error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.dead = append(r.dead, deadCall{claim: c, cause: cause})
}

func (r *recorder) handledCount() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.handled)
}

func (r *recorder) handledClaims() map[int64]domain.Claim {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make(map[int64]domain.Claim, len(r.handled))
	for k, v := range r.handled {
		out[k] = v
	}
	return out
}

func (r *recorder) deliveryCount(orderID int64) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.deliveries[orderID]
}

func (r *recorder) deadCount() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.dead)
}

func (r *recorder) deadCalls() []deadCall {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.dead)
}

func (r *recorder) batchSizes() []int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.batches)
}

// startConsuming runs q.Consume until the test ends or the returned stop is called.
func startConsuming(t *testing.T, q *queue.Queue, r *recorder) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- q.Consume(ctx, r.handle, r.deadFn) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				if err != nil && !errors.Is(err, queue.ErrClosed) {
					t.Errorf("consume: %v", err)
				}
			case <-time.After(30 * time.Second):
				t.Errorf("Consume did not return after its context ended")
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

var orderSeq struct {
	sync.Mutex
	next int64
}

// makeClaims returns n claims with distinct order ids above 2^53 (beyond what a double
// holds exactly), several users and vouchers spread over shards.
func makeClaims(n int) []domain.Claim {
	orderSeq.Lock()
	if orderSeq.next == 0 {
		orderSeq.next = 1<<53 + rand.Int64N(1<<40)
	}
	first := orderSeq.next
	orderSeq.next += int64(n)
	orderSeq.Unlock()
	claims := make([]domain.Claim, n)
	for i := range claims {
		claims[i] = domain.Claim{
			OrderID:   first + int64(i),
			UserID:    int64(1000 + i),
			VoucherID: int64(1 + i%37),
			ClaimedAt: time.UnixMilli(1_760_000_000_000 + int64(i)).UTC(),
		}
	}
	return claims
}

// publishAll publishes claims from the given number of goroutines at once.
func publishAll(t *testing.T, q *queue.Queue, claims []domain.Claim, goroutines int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, goroutines)
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := g; i < len(claims); i += goroutines {
				if err := q.PublishClaim(ctx, claims[i]); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("publish: %v", err)
	}
}

func waitUntil(t *testing.T, timeout time.Duration, cond func() bool, state func() string) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v: %s", timeout, state())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// logBatches logs the distribution of batch sizes and returns the mean.
func logBatches(t *testing.T, sizes []int) float64 {
	t.Helper()
	if len(sizes) == 0 {
		return 0
	}
	buckets := []struct {
		label string
		max   int
		n     int
	}{{"1", 1, 0}, {"2-9", 9, 0}, {"10-49", 49, 0}, {"50-99", 99, 0}, {"100-255", 255, 0}, {"256+", 1 << 30, 0}}
	total, largest := 0, 0
	for _, s := range sizes {
		total += s
		largest = max(largest, s)
		for i := range buckets {
			if s <= buckets[i].max {
				buckets[i].n++
				break
			}
		}
	}
	var b strings.Builder
	for _, bk := range buckets {
		fmt.Fprintf(&b, " %s:%d", bk.label, bk.n)
	}
	mean := float64(total) / float64(len(sizes))
	t.Logf("%d claims in %d batches: mean %.1f, largest %d; batches by size:%s", total, len(sizes), mean, largest, b.String())
	return mean
}
