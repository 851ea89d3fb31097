package periodic_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/periodic"
)

func TestEveryCallsUntilTheContextEnds(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	var calls atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		periodic.Every(ctx, time.Millisecond, func() {
			if calls.Add(1) == 3 {
				cancel()
			}
		})
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Every did not return after its context ended")
	}
	if n := calls.Load(); n != 3 {
		t.Fatalf("calls = %d, want 3 (none after the context ended)", n)
	}
}
