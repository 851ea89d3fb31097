package media

import (
	"context"
	"time"
)

// Store keeps uploaded images (the media store).
type Store interface {
	// Put stores data under name (a random hex name with the extension of contentType)
	// and returns the URL it is served at. Errors are infrastructure failures only.
	Put(ctx context.Context, name, contentType string, data []byte) (url string, err error)
}

// RateLimiter counts events per key in a sliding window (the shape of
// auth.RateLimiter, so one adapter serves both).
type RateLimiter interface {
	// Allow records one event for key if fewer than limit were recorded in the last
	// window; otherwise it records nothing and returns ok=false and how long until an
	// event would be allowed. Errors are infrastructure failures only.
	Allow(ctx context.Context, key string, limit int, window time.Duration) (ok bool, retryAfter time.Duration, err error)
}
