package followstest

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/contracttest"
	"github.com/dealspot/dealspot/internal/app/social/follows"
)

// FanoutQueueContract is what every follows.FanoutQueue must do, as its doc comments
// say. newQueue returns, for each case, a maker of nodes on one queue of their own
// (each node as a server node would hold it); a failed job is delivered again within
// seconds.
func FanoutQueueContract(t *testing.T, newQueue func(t *testing.T) func() follows.FanoutQueue) {
	t.Helper()
	contracttest.RunCases(t, newQueue,
		contracttest.Case[func() follows.FanoutQueue]{Name: "jobs are delivered at least once, to any node", Run: fanoutAtLeastOnce},
	)
}

func fanoutAtLeastOnce(t *testing.T, node func() follows.FanoutQueue) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Queued before any consumer exists: must not be lost.
	producer := node()
	at := time.UnixMilli(1_900_000_000_000)
	for _, id := range []int64{1, 2, 3} {
		if err := producer.Enqueue(ctx, follows.FanoutJob{BlogID: id, AuthorID: 7, At: at}); err != nil {
			t.Fatal(err)
		}
	}
	var (
		mu       sync.Mutex
		done     = map[int64]int{}
		attempts = map[int64]int{}
	)
	handle := func(_ context.Context, j follows.FanoutJob) error {
		mu.Lock()
		defer mu.Unlock()
		if j.AuthorID != 7 || !j.At.Equal(at) {
			t.Errorf("job %+v lost its fields", j)
		}
		attempts[j.BlogID]++
		switch {
		case j.BlogID == 2 && attempts[2] == 1:
			return errors.New("first try fails")
		case j.BlogID == 3:
			return errors.New("always fails")
		}
		done[j.BlogID]++
		return nil
	}
	// Two consumers share the queue, as two server nodes would.
	var wg sync.WaitGroup
	for range 2 {
		c := node()
		wg.Go(func() {
			if err := c.Consume(ctx, handle); err != nil {
				t.Errorf("Consume: %v", err)
			}
		})
	}
	deadline := time.Now().Add(time.Minute)
	for {
		mu.Lock()
		finished := done[1] >= 1 && done[2] >= 1 && attempts[3] >= 2
		mu.Unlock()
		if finished {
			break
		}
		if time.Now().After(deadline) {
			mu.Lock()
			t.Fatalf("jobs not handled in time: done %v attempts %v", done, attempts)
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	// Jobs 1 and 2 succeeded, at least once (a node may run a job another node stalled
	// on); job 3 failed and was delivered again.
	if done[1] < 1 || done[2] < 1 || attempts[3] < 2 {
		t.Fatalf("done %v attempts %v; want 1 and 2 done, 3 tried again", done, attempts)
	}
}
