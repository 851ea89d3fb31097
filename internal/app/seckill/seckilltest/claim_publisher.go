package seckilltest

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
)

// ClaimPublisherContract is what every seckill.ClaimPublisher must do, as its doc
// comment says: a claim whose publish returned no error reaches the consumer, whole, at
// least once. newQueue returns a publisher and the claims its consumer receives.
func ClaimPublisherContract(t *testing.T, newQueue func(t *testing.T) (seckill.ClaimPublisher, <-chan domain.Claim)) {
	t.Helper()
	t.Run("every published claim reaches the consumer whole", func(t *testing.T) {
		t.Parallel()
		pub, received := newQueue(t)
		at := time.UnixMilli(time.Now().UnixMilli()).UTC()
		var want []domain.Claim
		for i := range 5 {
			c := domain.Claim{OrderID: newID(), UserID: newID(), VoucherID: newID(), ClaimedAt: at.Add(time.Duration(i) * time.Millisecond)}
			if err := pub.PublishClaim(context.Background(), c); err != nil {
				t.Fatalf("publish %+v: %v", c, err)
			}
			want = append(want, c)
		}
		for len(want) > 0 {
			select {
			case got := <-received:
				i := slices.IndexFunc(want, func(c domain.Claim) bool { return c.OrderID == got.OrderID })
				if i < 0 {
					continue // a copy of one already received
				}
				if w := want[i]; got.UserID != w.UserID || got.VoucherID != w.VoucherID || !got.ClaimedAt.Equal(w.ClaimedAt) {
					t.Fatalf("received %+v, want %+v", got, w)
				}
				want = slices.Delete(want, i, i+1)
			case <-time.After(30 * time.Second):
				t.Fatalf("%d claims never received: %+v", len(want), want)
			}
		}
	})
}

// MemClaimQueue is an in-memory seckill.ClaimPublisher: it keeps the published claims and
// hands each to the channel Received returns. Fail makes PublishClaim fail.
type MemClaimQueue struct {
	mu        sync.Mutex
	published []domain.Claim
	err       error
	received  chan domain.Claim
}

var _ seckill.ClaimPublisher = (*MemClaimQueue)(nil)

// NewMemClaimQueue returns an empty queue.
func NewMemClaimQueue() *MemClaimQueue {
	return &MemClaimQueue{received: make(chan domain.Claim, 1024)}
}

// PublishClaim implements seckill.ClaimPublisher. A failed publish keeps nothing.
func (q *MemClaimQueue) PublishClaim(ctx context.Context, c domain.Claim) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.err != nil {
		return q.err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	q.published = append(q.published, c)
	select {
	case q.received <- c:
	default:
	}
	return nil
}

// Received delivers the published claims, as a consumer would get them (the first 1024
// not yet read).
func (q *MemClaimQueue) Received() <-chan domain.Claim { return q.received }

// Published returns the claims published so far, oldest first.
func (q *MemClaimQueue) Published() []domain.Claim {
	q.mu.Lock()
	defer q.mu.Unlock()
	return slices.Clone(q.published)
}

// Fail makes every publish from now on return err (nil: succeed again). A publish that
// is known not to have queued its claim wraps seckill.ErrNotEnqueued.
func (q *MemClaimQueue) Fail(err error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.err = err
}
