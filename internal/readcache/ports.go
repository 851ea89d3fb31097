package readcache

import (
	"context"
	"errors"
	"time"
)

// ErrLockNotHeld is returned by Mutex.Unlock when the lock is no longer held with that
// token: it expired, or someone else holds it now.
var ErrLockNotHeld = errors.New("cache: lock not held")

// Local is the in-process first layer (L1): bounded, per-entry TTL, never shared between
// processes. It holds decoded values, so a hit costs no I/O and no decoding. Its
// operations cannot fail and never block on I/O, hence no context and no errors.
type Local interface {
	// Get returns the value stored under key, if present and not expired.
	Get(key string) (value any, ok bool)
	// Set stores value under key for ttl (ttl > 0), evicting others when full.
	Set(key string, value any, ttl time.Duration)
	// Delete removes key, if present.
	Delete(key string)
	// Clear removes every entry.
	Clear()
}

// Remote is the shared second layer (L2), a key-value store with expiry (Redis). Keys
// are "<cache name>:<...>"; the adapter may add its own prefix.
type Remote interface {
	// Get returns the value under key. ok is false on a miss (nothing stored); a stored
	// empty value is a hit (ok true, len(value) == 0): the client uses it as the null
	// marker. Errors are the store's own (connection, timeout).
	Get(ctx context.Context, key string) (value []byte, ok bool, err error)
	// Set stores value under key; ttl 0 means no expiry. Errors are the store's own.
	Set(ctx context.Context, key string, value []byte, ttl time.Duration) error
	// Delete removes the keys; absent keys are not an error. Errors are the store's own.
	Delete(ctx context.Context, keys ...string) error
}

// Mutex is a lock shared by every process (SET NX PX with an owner token), so that one
// process at a time rebuilds a key.
type Mutex interface {
	// TryLock takes the lock on key for ttl without waiting. ok is false (and err nil)
	// when someone else holds it; token identifies this owner for Unlock. Errors are the
	// store's own.
	TryLock(ctx context.Context, key string, ttl time.Duration) (token string, ok bool, err error)
	// Unlock releases the lock on key if token still owns it (compare-and-delete), so a
	// holder whose lock expired never releases someone else's. It returns ErrLockNotHeld
	// when token does not own the lock, or the store's own errors.
	Unlock(ctx context.Context, key, token string) error
}

// Invalidations broadcasts "drop this key" to every process, so each drops its L1 copy.
type Invalidations interface {
	// Publish announces that key ("<cache name>:<id>") changed. Errors are the
	// transport's own.
	Publish(ctx context.Context, key string) error
	// Subscribe calls handle with every published key, including those this process
	// publishes, until stop is called; it returns once the subscription is in place, so
	// any later Publish reaches handle. handle receives "" when announcements may have
	// been missed (the subscription was re-established after a broken connection): the
	// subscriber should then drop everything it holds. handle runs on one goroutine, in
	// order, and must be quick. Errors are the transport's own, while subscribing.
	Subscribe(ctx context.Context, handle func(key string)) (stop func(), err error)
}

// Layer names a cache layer in metrics.
type Layer string

// Layers.
const (
	LayerLocal  Layer = "l1"
	LayerRemote Layer = "l2"
)

// Metrics observes the cache. Implementations must be safe for concurrent use and quick.
type Metrics interface {
	// Hit counts a read answered by layer (a cached null counts as a hit).
	Hit(cache string, layer Layer)
	// Miss counts a read that layer could not answer.
	Miss(cache string, layer Layer)
	// Load counts a call of the loader (the source of truth).
	Load(cache string)
	// LockWait counts a rebuild that found another process holding the key's lock and
	// waited for it.
	LockWait(cache string)
}

// NopMetrics observes nothing.
type NopMetrics struct{}

// Hit implements Metrics.
func (NopMetrics) Hit(string, Layer) {}

// Miss implements Metrics.
func (NopMetrics) Miss(string, Layer) {}

// Load implements Metrics.
func (NopMetrics) Load(string) {}

// LockWait implements Metrics.
func (NopMetrics) LockWait(string) {}
