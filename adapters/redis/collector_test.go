package redis

import (
	"sync"
	"testing"
	"time"
)

// A call to an idle collector is sent at once; calls arriving while a batch is out are
// sent together as soon as it is back, without waiting for the window; Max sends a full
// batch at once.
func TestCollectorBatchesWhileARoundTripIsOut(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	var (
		mu      sync.Mutex
		batches [][]int
	)
	sent := make(chan struct{}, 16)
	c := newCollector(Coalescing{Window: time.Hour, Max: 4}, func(batch []int) {
		mu.Lock()
		batches = append(batches, batch)
		first := len(batches) == 1
		mu.Unlock()
		sent <- struct{}{}
		if first {
			<-release // the first round trip is slow
		}
	})

	go c.add(1) // idle: sent at once, and held up
	<-sent
	for i := 2; i <= 4; i++ {
		c.add(i) // queued behind the first batch
	}
	mu.Lock()
	if len(batches) != 1 {
		t.Fatalf("batches while the first is out: %v", batches)
	}
	mu.Unlock()
	for i := 5; i <= 8; i++ {
		c.add(i) // 5 makes four waiting: sent at once, as one batch, by its caller
	}
	<-sent // the full batch, 2 to 5
	close(release)
	<-sent // 6, 7 and 8 go as soon as the first batch is back, not an hour later

	mu.Lock()
	defer mu.Unlock()
	want := [][]int{{1}, {2, 3, 4, 5}, {6, 7, 8}}
	if len(batches) != len(want) {
		t.Fatalf("batches %v, want %v", batches, want)
	}
	for i := range want {
		if len(batches[i]) != len(want[i]) {
			t.Fatalf("batches %v, want %v", batches, want)
		}
		for j := range want[i] {
			if batches[i][j] != want[i][j] {
				t.Fatalf("batches %v, want %v", batches, want)
			}
		}
	}
}
