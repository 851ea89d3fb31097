package service

import (
	"log/slog"

	"github.com/99designs/gqlgen/graphql"

	redisadapter "github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/internal/config"
)

// persistedQueries is the cache of automatic persisted queries that every node shares,
// in Redis; nil when APQ_TTL=0 (each node then keeps its own).
func persistedQueries(cfg config.GraphQL, rc *redisadapter.Conn, log *slog.Logger) graphql.Cache[string] {
	if cfg.APQTTL <= 0 {
		return nil
	}
	return redisadapter.NewPersistedQueries(rc.Client, redisadapter.PersistedQuerySettings{
		TTL: cfg.APQTTL, MaxBytes: cfg.APQMaxBytes,
	}, log)
}
