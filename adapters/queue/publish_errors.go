package queue

import (
	"fmt"

	"github.com/dealspot/dealspot/internal/app/seckill"
)

// notEnqueued is what PublishClaim returns for a claim known not to be queued: it
// wraps seckill.ErrNotEnqueued, so the claim path undoes the reservation. Which broker
// errors mean "not queued" each backend says (backend.notSent).
func notEnqueued(err error) error {
	return fmt.Errorf("%w (%w)", err, seckill.ErrNotEnqueued)
}
