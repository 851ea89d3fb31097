package followstest_test

import (
	"testing"

	"github.com/dealspot/dealspot/internal/app/social/follows"
	"github.com/dealspot/dealspot/internal/app/social/follows/followstest"
)

// The in-memory fan-out queue meets the contract the Redis stream meets.
func TestMemFanoutContract(t *testing.T) {
	t.Parallel()
	followstest.FanoutQueueContract(t, func(*testing.T) func() follows.FanoutQueue {
		q := followstest.NewMemFanout()
		return func() follows.FanoutQueue { return q }
	})
}
