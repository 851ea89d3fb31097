package media_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/media"
	"github.com/dealspot/dealspot/internal/app/media/mediatest"
)

// TestConcurrentUploadsRSS is a measurement, not a check, and runs only when
// MEDIA_RSS_PNG names a file: four uploads of an 8000×5000 16-bit PNG at once under a
// 512 MiB budget (one decode at a time), then the process's peak and current RSS, and
// again every 30 s for 150 s. The file is written on the first run. Linux only
// (/proc/self/status); docs/performance.md has the figures:
//
//	MEDIA_RSS_PNG=/tmp/png16.png go test -count=1 -run ConcurrentUploadsRSS -v ./internal/app/media/
//	MEDIA_RSS_PNG=/tmp/png16.png GOMEMLIMIT=400MiB go test -count=1 -run ConcurrentUploadsRSS -v ./internal/app/media/
func TestConcurrentUploadsRSS(t *testing.T) {
	path := os.Getenv("MEDIA_RSS_PNG")
	if path == "" {
		t.Skip("a measurement: set MEDIA_RSS_PNG to run it")
	}
	src, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		src = encodePNGImage(t, gradient16(8000, 5000, true))
		if err := os.WriteFile(path, src, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Skip("wrote the image (its encoding would count in the peak): run again")
	}
	if err != nil {
		t.Fatal(err)
	}
	cfg := defaults
	cfg.RatePerUser = 0
	cfg.DecodeBudget = 512 << 20
	u, err := media.New(cfg, media.Deps{Store: &memStore{}, Uploads: &mediatest.MemUploads{}})
	if err != nil {
		t.Fatal(err)
	}
	logRSS(t, "before")
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if _, err := u.Handle(context.Background(), user, bytes.NewReader(src), int64(len(src))); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	logRSS(t, "after four uploads at once")
	for i := 1; i <= 5; i++ {
		time.Sleep(30 * time.Second)
		logRSS(t, fmt.Sprintf("%d s later", 30*i))
	}
}

// logRSS logs the process's peak (VmHWM) and current (VmRSS) resident memory.
func logRSS(t *testing.T, when string) {
	t.Helper()
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skipf("no /proc/self/status: %v", err)
	}
	var fields []string
	for line := range strings.SplitSeq(string(status), "\n") {
		if strings.HasPrefix(line, "VmHWM:") || strings.HasPrefix(line, "VmRSS:") {
			fields = append(fields, strings.Join(strings.Fields(line), " "))
		}
	}
	t.Logf("%s: %s", when, strings.Join(fields, ", "))
}
