package followstest

import (
	"context"
	"sync"
	"time"

	"github.com/dealspot/dealspot/internal/app/social/follows"
)

// MemFanout is the in-memory follows.FanoutQueue of the app's tests: one queue that
// every node shares (hand the same MemFanout to each). A job whose handler fails is
// queued again, to be delivered after RetryAfter. It passes FanoutQueueContract.
type MemFanout struct {
	// RetryAfter is how long a failed job waits before it is delivered again.
	RetryAfter time.Duration

	mu   sync.Mutex
	jobs []memFanoutJob
	wake chan struct{}
}

type memFanoutJob struct {
	job follows.FanoutJob
	due time.Time
}

var _ follows.FanoutQueue = (*MemFanout)(nil)

// NewMemFanout returns an empty queue that delivers a failed job again after 10ms.
func NewMemFanout() *MemFanout {
	return &MemFanout{RetryAfter: 10 * time.Millisecond, wake: make(chan struct{}, 1)}
}

// Enqueue hands job over.
func (m *MemFanout) Enqueue(_ context.Context, job follows.FanoutJob) error {
	m.put(memFanoutJob{job: job})
	return nil
}

// Consume calls handle for every job until ctx ends, and returns nil then.
func (m *MemFanout) Consume(ctx context.Context, handle func(ctx context.Context, job follows.FanoutJob) error) error {
	for ctx.Err() == nil {
		j, ok := m.take()
		if !ok {
			select {
			case <-ctx.Done():
			case <-m.wake:
			case <-time.After(m.RetryAfter):
			}
			continue
		}
		if err := handle(ctx, j.job); err != nil {
			m.put(memFanoutJob{job: j.job, due: time.Now().Add(m.RetryAfter)})
		}
	}
	return nil
}

// put queues j and wakes a consumer.
func (m *MemFanout) put(j memFanoutJob) {
	m.mu.Lock()
	m.jobs = append(m.jobs, j)
	m.mu.Unlock()
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

// take removes and returns the first job that is due.
func (m *MemFanout) take() (memFanoutJob, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	for i, j := range m.jobs {
		if !j.due.After(now) {
			m.jobs = append(m.jobs[:i], m.jobs[i+1:]...)
			return j, true
		}
	}
	return memFanoutJob{}, false
}
