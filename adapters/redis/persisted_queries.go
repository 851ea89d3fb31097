package redis

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// persistedQueryKeyPrefix prefixes the key of a persisted query: apq:<sha256 in hex>.
const persistedQueryKeyPrefix = "apq:"

// persistedQueryTimeout bounds one read or write: a slow Redis makes a persisted query
// look unknown (the client then sends its text), never a slow request.
const persistedQueryTimeout = 200 * time.Millisecond

// persistedQueryLogEvery is the least time between two logged failures.
const persistedQueryLogEvery = 10 * time.Second

// PersistedQueries keeps the texts of automatic persisted queries by their SHA-256 hash,
// so that a hash registered on one node is found on every node. It has the shape of
// gqlgen's graphql.Cache[string]. A Redis that cannot answer makes Get report a miss
// and Add do nothing: the client is then asked for the query's text, as on a node that
// never saw it.
type PersistedQueries struct {
	rdb     goredis.UniversalClient
	ttl     time.Duration
	log     *slog.Logger
	lastLog atomic.Int64 // unix nanoseconds of the last logged failure
}

// NewPersistedQueries stores persisted queries in rdb for ttl after their last
// registration.
func NewPersistedQueries(rdb goredis.UniversalClient, ttl time.Duration, log *slog.Logger) *PersistedQueries {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &PersistedQueries{rdb: rdb, ttl: ttl, log: log}
}

// Get returns the query registered under hash; false when there is none, the hash is not
// a SHA-256 in hex, or Redis could not answer in time.
func (p *PersistedQueries) Get(ctx context.Context, hash string) (string, bool) {
	if !isSHA256Hex(hash) {
		return "", false
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), persistedQueryTimeout)
	defer cancel()
	q, err := p.rdb.Get(ctx, persistedQueryKeyPrefix+hash).Result()
	switch {
	case err == goredis.Nil:
		return "", false
	case err != nil:
		p.warn("read", err)
		return "", false
	}
	return q, true
}

// Add registers query under hash (which the caller checked is the query's SHA-256).
func (p *PersistedQueries) Add(ctx context.Context, hash, query string) {
	if !isSHA256Hex(hash) {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), persistedQueryTimeout)
	defer cancel()
	if err := p.rdb.Set(ctx, persistedQueryKeyPrefix+hash, query, p.ttl).Err(); err != nil {
		p.warn("store", err)
	}
}

// warn logs a failure, at most once per persistedQueryLogEvery.
func (p *PersistedQueries) warn(op string, err error) {
	now := time.Now().UnixNano()
	last := p.lastLog.Load()
	if now-last < int64(persistedQueryLogEvery) || !p.lastLog.CompareAndSwap(last, now) {
		return
	}
	p.log.Warn("cannot "+op+" a persisted query in redis; clients resend the query text", slog.Any("error", err))
}

// isSHA256Hex reports whether s is 64 lowercase hex digits.
func isSHA256Hex(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := range len(s) {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
