package service

import (
	"github.com/99designs/gqlgen/graphql"

	redisadapter "github.com/dealspot/dealspot/adapters/redis"
)

// persistedQueries is the cache of automatic persisted queries that every node shares,
// in Redis; nil when APQ_TTL=0 (each node then keeps its own).
func (s *Node) persistedQueries() graphql.Cache[string] {
	if s.Config.GraphQL.APQTTL <= 0 {
		return nil
	}
	return redisadapter.NewPersistedQueries(s.Redis.Client, redisadapter.PersistedQuerySettings{
		TTL: s.Config.GraphQL.APQTTL, MaxBytes: s.Config.GraphQL.APQMaxBytes,
	}, s.Log)
}
