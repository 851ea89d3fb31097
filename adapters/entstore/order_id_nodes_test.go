package entstore_test

import (
	"sync"
	"testing"
)

func TestStartOrderIDNodeNeverRepeatsAStart(t *testing.T) {
	t.Parallel()
	for name, open := range everyStore {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := open(t)
			var (
				mu     sync.Mutex
				starts = map[int64]bool{}
				wg     sync.WaitGroup
			)
			for range 20 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					n, err := s.StartOrderIDNode(t.Context(), "host-a")
					if err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					defer mu.Unlock()
					if n <= 0 || starts[n] {
						t.Errorf("start %d is not positive or was handed out before", n)
					}
					starts[n] = true
				}()
			}
			wg.Wait()
			// A start after all of those is numbered after them, even once the rows are
			// gone: the database never reuses an id.
			if _, err := s.Client().OrderIDNode.Delete().Exec(t.Context()); err != nil {
				t.Fatal(err)
			}
			n, err := s.StartOrderIDNode(t.Context(), "host-b")
			if err != nil {
				t.Fatal(err)
			}
			for old := range starts {
				if n <= old {
					t.Fatalf("start %d after deleting the records is not after %d", n, old)
				}
			}
		})
	}
}
