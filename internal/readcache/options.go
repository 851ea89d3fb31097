package readcache

import "log/slog"

// Deps are the ports a Client uses.
type Deps struct {
	// Local is L1; required when Config.LocalTTL > 0, ignored otherwise. One Local may
	// serve several clients: keys start with the client's name.
	Local Local
	// Remote is L2; required.
	Remote Remote
	// Mutex serializes rebuilds across processes; required.
	Mutex Mutex
	// Invalidations carries Invalidate to every process; required with L1 on (else
	// other processes would serve their L1 copy until it expires), optional otherwise.
	Invalidations Invalidations
	// Metrics observes hits, misses, loads and lock waits; nil observes nothing.
	Metrics Metrics
	// Logger reports degraded operation (L2 or lock unreachable, failed background
	// refreshes); nil means slog.Default().
	Logger *slog.Logger
}

// Option customizes a Client.
type Option[V any] func(*Client[V])

// WithCodec sets how values are stored in L2 (default JSON).
func WithCodec[V any](codec Codec[V]) Option[V] {
	return func(c *Client[V]) { c.codec = codec }
}

// WithValid rejects ids that cannot exist before any I/O: reads of such an id return
// "not found" at once, without touching L1, L2 or the loader. Without it every id is
// looked up (and a missing one cached as null).
func WithValid[V any](valid func(id string) bool) Option[V] {
	return func(c *Client[V]) { c.valid = valid }
}
