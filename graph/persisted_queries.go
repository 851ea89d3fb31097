package graph

import (
	"context"
	"log/slog"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/lru"
)

// persistedQueries is the cache of automatic persisted queries: this node's LRU in front
// of a cache every node shares (nil: the LRU alone). A query found in the shared cache is
// kept locally too. The shared cache failing — even panicking — is a miss: the client is
// asked for the query's text (PERSISTED_QUERY_NOT_FOUND), never answered an error.
type persistedQueries struct {
	local  *lru.LRU[string]
	shared graphql.Cache[string]
	log    *slog.Logger
}

var _ graphql.Cache[string] = (*persistedQueries)(nil)

func newPersistedQueries(size int, shared graphql.Cache[string], log *slog.Logger) *persistedQueries {
	return &persistedQueries{local: lru.New[string](size), shared: shared, log: log}
}

// Get implements graphql.Cache.
func (c *persistedQueries) Get(ctx context.Context, hash string) (string, bool) {
	if q, ok := c.local.Get(ctx, hash); ok {
		return q, true
	}
	if c.shared == nil {
		return "", false
	}
	q, ok := c.sharedGet(ctx, hash)
	if ok {
		c.local.Add(ctx, hash, q)
	}
	return q, ok
}

// Add implements graphql.Cache.
func (c *persistedQueries) Add(ctx context.Context, hash, query string) {
	c.local.Add(ctx, hash, query)
	if c.shared == nil {
		return
	}
	defer func() {
		if r := recover(); r != nil {
			c.log.Error("persisted query cache panicked storing a query", slog.Any("panic", r))
		}
	}()
	c.shared.Add(ctx, hash, query)
}

func (c *persistedQueries) sharedGet(ctx context.Context, hash string) (q string, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			c.log.Error("persisted query cache panicked reading a query", slog.Any("panic", r))
			q, ok = "", false
		}
	}()
	return c.shared.Get(ctx, hash)
}
