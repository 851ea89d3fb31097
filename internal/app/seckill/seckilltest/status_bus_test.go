package seckilltest_test

import (
	"testing"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/app/seckill/seckilltest"
)

// The in-memory bus meets the contract of the Redis one.
func TestMemStatusBusContract(t *testing.T) {
	t.Parallel()
	seckilltest.StatusBusContract(t, func(*testing.T) func() seckill.StatusBus {
		bus := seckilltest.NewMemStatusBus()
		return func() seckill.StatusBus { return bus }
	})
}
