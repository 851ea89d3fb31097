// Package periodic runs the application's background passes (expiry, reminders,
// warnings, sweeps) on a ticker.
package periodic

import (
	"context"
	"time"
)

// Every calls fn every d until ctx ends; the first call is d after the start.
func Every(ctx context.Context, d time.Duration, fn func()) {
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			fn()
		}
	}
}
