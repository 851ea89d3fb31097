package redis

import (
	"context"
	_ "embed"
	"log/slog"
	"sync/atomic"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// The store of persisted queries: three keys under one hash tag, so that its script runs
// on Redis Cluster (one slot holds them all; each node keeps the queries it uses in
// process, so it reads them rarely).
const (
	persistedQueryDocsKey  = "apq:{apq}:docs"
	persistedQueryAgeKey   = "apq:{apq}:age"
	persistedQueryBytesKey = "apq:{apq}:bytes"
)

// PersistedQueryEntryCost is what an entry counts against the budget beside its text:
// its hash twice (in the hash and the index) and Redis's bookkeeping of both.
const PersistedQueryEntryCost = 256

var (
	//go:embed lua/persisted_query_add.lua
	persistedQueryAddLua    string
	persistedQueryAddScript = goredis.NewScript(persistedQueryAddLua)
)

// persistedQueryTimeout bounds one read or write: a slow Redis makes a persisted query
// look unknown (the client then sends its text), never a slow request.
const persistedQueryTimeout = 200 * time.Millisecond

// persistedQueryLogEvery is the least time between two logged failures.
const persistedQueryLogEvery = 10 * time.Second

// PersistedQuerySettings shape the store.
type PersistedQuerySettings struct {
	// TTL: an entry registered longer ago goes (at a later registration), and a store
	// nobody registered in for TTL goes whole.
	TTL time.Duration
	// MaxBytes bounds the store: its texts plus PersistedQueryEntryCost per entry. The
	// oldest registrations go first; a text larger than the budget is not kept.
	MaxBytes int64
	// Now is the clock of the registrations (nil: time.Now).
	Now func() time.Time
}

// PersistedQueries keeps the texts of automatic persisted queries by their SHA-256 hash,
// so that a hash registered on one node is found on every node, in a store of bounded
// size beside the sale gate and the sessions (which must never be short of memory). It
// has the shape of gqlgen's graphql.Cache[string]; the caller registers only documents
// it validated. A Redis that cannot answer makes Get report a miss and Add do nothing:
// the client is then asked for the query's text, as on a node that never saw it.
type PersistedQueries struct {
	rdb     goredis.UniversalClient
	set     PersistedQuerySettings
	log     *slog.Logger
	lastLog atomic.Int64 // unix nanoseconds of the last logged failure
}

// NewPersistedQueries stores persisted queries in rdb within set.
func NewPersistedQueries(rdb goredis.UniversalClient, set PersistedQuerySettings, log *slog.Logger) *PersistedQueries {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if set.Now == nil {
		set.Now = time.Now
	}
	return &PersistedQueries{rdb: rdb, set: set, log: log}
}

// Get returns the query registered under hash; false when there is none, the hash is not
// a SHA-256 in hex, or Redis could not answer in time.
func (p *PersistedQueries) Get(ctx context.Context, hash string) (string, bool) {
	if !isSHA256Hex(hash) {
		return "", false
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), persistedQueryTimeout)
	defer cancel()
	q, err := p.rdb.HGet(ctx, persistedQueryDocsKey, hash).Result()
	switch {
	case err == goredis.Nil:
		return "", false
	case err != nil:
		p.warn("read", err)
		return "", false
	}
	return q, true
}

// Add registers query under hash (which the caller checked is the query's SHA-256),
// dropping the oldest entries past the budget.
func (p *PersistedQueries) Add(ctx context.Context, hash, query string) {
	if !isSHA256Hex(hash) {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), persistedQueryTimeout)
	defer cancel()
	err := persistedQueryAddScript.Run(ctx, p.rdb,
		[]string{persistedQueryDocsKey, persistedQueryAgeKey, persistedQueryBytesKey},
		hash, query, p.set.Now().UnixMilli(), p.set.TTL.Milliseconds(), p.set.MaxBytes, PersistedQueryEntryCost).Err()
	if err != nil {
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
