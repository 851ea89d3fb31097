package media_test

import (
	"bytes"
	"context"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/media"
	"github.com/dealspot/dealspot/internal/app/media/mediatest"
)

// BenchmarkUpload16BitPNG uploads an 8000×5000 PNG of 16 bits per channel (a few
// hundred KB compressed, 320 MB decoded) and reports the peak of the heap during the
// upload over the heap before it (peak-heap-MB), the CPU time the process spent on it,
// garbage collection included (cpu-s/op; wall time on a shared host says little), and
// the size stored (stored-KB).
//
//	go test -run '^$' -bench Upload16BitPNG -benchtime 3x -benchmem ./internal/app/media/
func BenchmarkUpload16BitPNG(b *testing.B) {
	src := encodePNGImage(b, gradient16(8000, 5000, true))
	store := &memStore{}
	cfg := defaults
	cfg.DecodeBudget = 1 << 30
	cfg.RatePerUser = 0
	u, err := media.New(cfg, media.Deps{Store: store, Uploads: &mediatest.MemUploads{}})
	if err != nil {
		b.Fatal(err)
	}
	var peak, stored float64
	var cpu time.Duration
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		runtime.GC()
		base := heapObjects()
		stop := watchHeap()
		cpu0 := processCPU()
		b.StartTimer()
		if _, err := u.Handle(context.Background(), user, bytes.NewReader(src), int64(len(src))); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		cpu += processCPU() - cpu0
		peak = max(peak, float64(stop()-base)/(1<<20))
		_, file := store.last(b)
		stored = float64(len(file.data)) / 1024
		b.StartTimer()
	}
	b.ReportMetric(peak, "peak-heap-MB")
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(stored, "stored-KB")
	b.ReportMetric(float64(len(src))/1024, "source-KB")
}

// heapObjects is the memory held by heap objects, live or not yet swept.
func heapObjects() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// watchHeap samples heapObjects every millisecond until the returned function is
// called, which returns the largest sample.
func watchHeap() func() uint64 {
	var (
		mu   sync.Mutex
		peak = heapObjects()
		done = make(chan struct{})
		wg   sync.WaitGroup
	)
	wg.Go(func() {
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				mu.Lock()
				peak = max(peak, heapObjects())
				mu.Unlock()
			}
		}
	})
	return func() uint64 {
		close(done)
		wg.Wait()
		mu.Lock()
		defer mu.Unlock()
		return max(peak, heapObjects())
	}
}
