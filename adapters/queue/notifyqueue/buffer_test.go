package notifyqueue_test

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/queue/notifyqueue"
	"github.com/dealspot/dealspot/internal/domain"
)

func event(i int) domain.NotificationEvent {
	return domain.NotificationEvent{Kind: domain.NotifyFollowed, ActorID: int64(i), RecipientID: 1}
}

// handled records what the writer was handed.
type handled struct {
	mu      sync.Mutex
	batches [][]domain.NotificationEvent
	fail    int // fail the next fail calls
}

func (h *handled) handle(_ context.Context, batch []domain.NotificationEvent) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.batches = append(h.batches, slices.Clone(batch))
	if h.fail > 0 {
		h.fail--
		return errors.New("database down")
	}
	return nil
}

// actors returns the actors of every event handed over, in order, and the batches.
func (h *handled) actors() ([]int64, int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []int64
	for _, b := range h.batches {
		for _, e := range b {
			out = append(out, e.ActorID)
		}
	}
	return out, len(h.batches)
}

func upTo(n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(i)
	}
	return out
}

func TestNotifyNeverWaits(t *testing.T) {
	t.Parallel()
	b := notifyqueue.New(notifyqueue.Config{Capacity: 10}, slog.New(slog.DiscardHandler))
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 25 { // nobody drains: 15 have no room
			b.Notify(context.Background(), event(i))
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Notify waited for room in the buffer")
	}
	if b.Dropped() != 15 {
		t.Fatalf("dropped %d, want 15", b.Dropped())
	}
	// What fitted is handed over at stop.
	h := &handled{}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	b.Run(ctx, h.handle)
	if got, _ := h.actors(); !slices.Equal(got, upTo(10)) {
		t.Fatalf("handed over %v, want the first 10", got)
	}
	b.Notify(context.Background(), event(99)) // closed: dropped, no panic
	if b.Dropped() != 16 {
		t.Fatalf("dropped %d after close, want 16", b.Dropped())
	}
}

func TestEventsGoInOrderInBatches(t *testing.T) {
	t.Parallel()
	b := notifyqueue.New(notifyqueue.Config{MaxBatch: 100, Linger: 50 * time.Millisecond}, slog.New(slog.DiscardHandler))
	h := &handled{}
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { defer close(stopped); b.Run(ctx, h.handle) }()
	for i := range 1000 {
		b.Notify(context.Background(), event(i))
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		got, batches := h.actors()
		if len(got) == 1000 {
			if !slices.Equal(got, upTo(1000)) {
				t.Fatalf("handed over out of order: %v", got)
			}
			if batches > 100 {
				t.Fatalf("1000 events in %d batches; want batches of up to 100 filled", batches)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("handed over %d of 1000", len(got))
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	<-stopped
}

func TestAFailingBatchIsRetriedThenDropped(t *testing.T) {
	t.Parallel()
	b := notifyqueue.New(notifyqueue.Config{Attempts: 3, Backoff: time.Millisecond, Linger: time.Millisecond}, slog.New(slog.DiscardHandler))
	h := &handled{fail: 2}
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { defer close(stopped); b.Run(ctx, h.handle) }()
	b.Notify(context.Background(), event(1))
	waitBatches := func(n int) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for {
			if _, got := h.actors(); got >= n {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("fewer than %d batches handed over", n)
			}
			time.Sleep(time.Millisecond)
		}
	}
	waitBatches(3) // two failures, then it went through
	h.mu.Lock()
	h.fail = 3
	h.mu.Unlock()
	b.Notify(context.Background(), event(2))
	waitBatches(6) // three failures: dropped
	b.Notify(context.Background(), event(3))
	waitBatches(7) // the next event goes on
	cancel()
	<-stopped
	if got, _ := h.actors(); !slices.Equal(got, []int64{1, 1, 1, 2, 2, 2, 3}) {
		t.Fatalf("handed over %v", got)
	}
}

// Every event given up on is counted under its reason: past the capacity
// (buffer_full), after Close (closed), and when the handler keeps failing (the
// configured FailReason).
func TestDropsAreCountedByReason(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	drops := map[string]int{}
	b := notifyqueue.New(notifyqueue.Config{Capacity: 3, Attempts: 2, Backoff: time.Millisecond, FailReason: notifyqueue.ReasonPublishFailed,
		Drops: func(reason string, n int) {
			mu.Lock()
			defer mu.Unlock()
			drops[reason] += n
		}}, slog.New(slog.DiscardHandler))
	for i := range 5 {
		b.Notify(t.Context(), event(i))
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		b.Run(t.Context(), func(context.Context, []domain.NotificationEvent) error { return errors.New("broker down") })
	}()
	b.Close()
	<-done
	b.Notify(t.Context(), event(9))
	mu.Lock()
	defer mu.Unlock()
	want := map[string]int{notifyqueue.ReasonBufferFull: 2, notifyqueue.ReasonPublishFailed: 3, notifyqueue.ReasonClosed: 1}
	if len(drops) != len(want) || drops[notifyqueue.ReasonBufferFull] != 2 || drops[notifyqueue.ReasonPublishFailed] != 3 ||
		drops[notifyqueue.ReasonClosed] != 1 || b.Dropped() != 6 {
		t.Fatalf("drops %v (total %d); want %v", drops, b.Dropped(), want)
	}
}
