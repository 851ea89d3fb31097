package main

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
	"time"
)

func TestBucketsCoverEveryValueInOrder(t *testing.T) {
	t.Parallel()
	prev := -1
	for _, us := range []uint64{0, 1, 63, 64, 65, 127, 128, 1000, 1 << 20, 1<<40 + 12345, 1<<63 - 1} {
		i := bucketOf(us)
		if i < prev || i >= nBuckets {
			t.Fatalf("bucketOf(%d) = %d after %d (of %d buckets)", us, i, prev, nBuckets)
		}
		prev = i
		if top := bucketTop(i); top < us {
			t.Errorf("bucket %d of %d µs tops out at %d", i, us, top)
		}
		if i > 0 && bucketTop(i-1) >= us {
			t.Errorf("%d µs belongs in bucket %d (top %d), not %d", us, i-1, bucketTop(i-1), i)
		}
	}
}

func TestQuantilesWithinThreePercent(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	var h histogram
	samples := make([]time.Duration, 100_000)
	for i := range samples {
		// Log-uniform from 50 µs to 5 s, like latencies under load.
		samples[i] = time.Duration(50e3 * math.Pow(10, rng.Float64()*5))
		h.record(samples[i])
	}
	sort.Slice(samples, func(i, j int) bool { return samples[i] < samples[j] })
	for _, q := range []float64{0.5, 0.9, 0.99, 0.999} {
		want := samples[int(q*float64(len(samples)))-1]
		got := h.quantile(q)
		if got < want || float64(got-want) > 0.032*float64(want)+float64(time.Microsecond) {
			t.Errorf("p%g = %s, exact %s", q*100, got, want)
		}
	}
	if h.quantile(1) != samples[len(samples)-1] || h.max != samples[len(samples)-1] {
		t.Errorf("max = %s / p100 = %s, want %s", h.max, h.quantile(1), samples[len(samples)-1])
	}
}

func TestMedianOfPairs(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		in   []float64
		want float64
	}{
		{"none", nil, 0},
		{"odd", []float64{0.9, 0.1, 0.5}, 0.5},
		{"even", []float64{0.4, 0.8, 0.6, 0.2}, 0.5},
	} {
		if got := median(c.in); got != c.want {
			t.Errorf("%s: median(%v) = %g, want %g", c.name, c.in, got, c.want)
		}
	}
}
