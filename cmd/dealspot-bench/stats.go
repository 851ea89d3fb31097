package main

import (
	"math/bits"
	"sort"
	"sync"
	"time"
)

// The latency histogram is log-linear, like HdrHistogram with two significant bits and
// a half: values below 2·subCount microseconds have a bucket each, above that every
// power of two is cut into subCount equal buckets, so any quantile is off by at most
// 1/subCount (3%) of its value, from 1 µs to hours, in a fixed 15 KB.
const (
	subBits  = 5
	subCount = 1 << subBits
	nBuckets = (64 - subBits) * subCount
)

type histogram struct {
	counts [nBuckets]uint64
	n      uint64
	sum    time.Duration
	max    time.Duration
}

func bucketOf(us uint64) int {
	if us < 2*subCount {
		return int(us)
	}
	shift := bits.Len64(us) - (subBits + 1)
	return (shift+1)*subCount + int(us>>shift) - subCount
}

// bucketTop is the largest value (µs) bucket i holds.
func bucketTop(i int) uint64 {
	if i < 2*subCount {
		return uint64(i)
	}
	shift := i/subCount - 1
	sub := uint64(i%subCount + subCount)
	return (sub+1)<<shift - 1
}

func (h *histogram) record(d time.Duration) {
	if d < 0 {
		d = 0
	}
	h.counts[bucketOf(uint64(d/time.Microsecond))]++
	h.n++
	h.sum += d
	if d > h.max {
		h.max = d
	}
}

func (h *histogram) merge(o *histogram) {
	for i, c := range o.counts {
		h.counts[i] += c
	}
	h.n += o.n
	h.sum += o.sum
	if o.max > h.max {
		h.max = o.max
	}
}

// quantile returns the value at or below which a fraction q of the samples lie (the
// bucket's upper bound, never above the largest sample).
func (h *histogram) quantile(q float64) time.Duration {
	if h.n == 0 {
		return 0
	}
	rank := uint64(q*float64(h.n) + 0.999999)
	rank = max(rank, 1)
	var seen uint64
	for i, c := range h.counts {
		seen += c
		if seen >= rank {
			return min(time.Duration(bucketTop(i))*time.Microsecond+time.Microsecond-1, h.max)
		}
	}
	return h.max
}

func (h *histogram) mean() time.Duration {
	if h.n == 0 {
		return 0
	}
	return h.sum / time.Duration(h.n)
}

// Phase kinds.
const (
	kindClaims   = "claims"
	kindBaseline = "baseline"
	kindWarmup   = "warmup"
)

// bin is one second of a phase.
type bin struct {
	n, errors uint64
	hist      histogram
}

// phaseStats collects one phase's answers. Requests finish on many goroutines; one
// mutex per phase costs far less than the HTTP round trip each sample stands for.
type phaseStats struct {
	kind  string
	start time.Time
	end   time.Time

	mu      sync.Mutex
	hist    histogram
	answers map[string]uint64
	errors  uint64
	bins    []*bin
	// firstAccept and lastAccept bound the accepted claims' answers.
	firstAccept time.Time
	lastAccept  time.Time
}

func newPhaseStats(kind string, start time.Time) *phaseStats {
	return &phaseStats{kind: kind, start: start, answers: map[string]uint64{}}
}

// record counts one answer that arrived at `at` after lat.
func (p *phaseStats) record(at time.Time, lat time.Duration, code string, isErr bool) {
	i := int(at.Sub(p.start) / time.Second)
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.bins) <= i {
		p.bins = append(p.bins, &bin{})
	}
	b := p.bins[i]
	b.n++
	b.hist.record(lat)
	p.hist.record(lat)
	p.answers[code]++
	if isErr {
		b.errors++
		p.errors++
	}
	if code == answerAccepted {
		if p.firstAccept.IsZero() || at.Before(p.firstAccept) {
			p.firstAccept = at
		}
		if at.After(p.lastAccept) {
			p.lastAccept = at
		}
	}
}

// snapshot returns the phase's totals so far and its last full second.
func (p *phaseStats) snapshot(now time.Time) (n, errs uint64, last bin, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	n, errs = p.hist.n, p.errors
	i := int(now.Sub(p.start)/time.Second) - 1
	if i >= 0 && i < len(p.bins) {
		return n, errs, *p.bins[i], true
	}
	return n, errs, bin{}, i >= 0
}

func (p *phaseStats) seconds() float64 { return p.end.Sub(p.start).Seconds() }

func (p *phaseStats) rate() float64 {
	if s := p.seconds(); s > 0 {
		return float64(p.hist.n) / s
	}
	return 0
}

// combined adds up phases of one kind.
type combined struct {
	hist        histogram
	answers     map[string]uint64
	errors      uint64
	seconds     float64
	firstAccept time.Time
	lastAccept  time.Time
}

func combine(phases []*phaseStats, kind string) combined {
	c := combined{answers: map[string]uint64{}}
	for _, p := range phases {
		if p.kind != kind {
			continue
		}
		c.hist.merge(&p.hist)
		for k, v := range p.answers {
			c.answers[k] += v
		}
		c.errors += p.errors
		c.seconds += p.seconds()
		if !p.firstAccept.IsZero() && (c.firstAccept.IsZero() || p.firstAccept.Before(c.firstAccept)) {
			c.firstAccept = p.firstAccept
		}
		if p.lastAccept.After(c.lastAccept) {
			c.lastAccept = p.lastAccept
		}
	}
	return c
}

func (c combined) rate() float64 {
	if c.seconds > 0 {
		return float64(c.hist.n) / c.seconds
	}
	return 0
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
