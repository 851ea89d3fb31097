package graph

import (
	"log/slog"
	"net/http"

	"github.com/vektah/gqlparser/v2"

	"github.com/dealspot/dealspot/graph/generated"
)

// NewTestServer is the GraphQL server without authentication, over resolvers that have
// no application: enough for everything decided before an operation runs.
func NewTestServer(o Options) http.Handler {
	cfg := generated.Config{Resolvers: &Resolver{}}
	cfg.Directives.Auth = authDirective
	return guardRequests(o.AllowedOrigins, codedTransportErrors(newServer(generated.NewExecutableSchema(cfg), newWebsocketSessions(nil, o.Websocket), slog.New(slog.DiscardHandler), o)))
}

// Measure validates query against the schema and returns its depth, aliases and
// complexity as OperationLimits counts them.
func Measure(query string, vars map[string]any, pageSize, maxPageSize int) (depth int, aliases, complexity int64, err error) {
	schema := generated.NewExecutableSchema(generated.Config{Resolvers: &Resolver{}}).Schema()
	doc, errs := gqlparser.LoadQueryWithRules(schema, query, nil)
	if len(errs) > 0 {
		return 0, 0, 0, errs
	}
	c := newMeasurer(doc.Fragments, vars, pageSize, maxPageSize).set(doc.Operations[0].SelectionSet)
	return c.depth, c.aliases, c.total(), nil
}

// CodedErrorBody is codedErrorBody, for tests.
var CodedErrorBody = codedErrorBody

// RecognisesClaim reports whether the claim's fast path answers query itself.
func RecognisesClaim(query string, o Options) bool {
	cfg := generated.Config{Resolvers: &Resolver{}}
	cfg.Directives.Auth = authDirective
	schema := generated.NewExecutableSchema(cfg).Schema()
	f := newFastClaim(http.NotFoundHandler(), &Resolver{}, schema, slog.New(slog.DiscardHandler), o)
	return f.classify(query) != notClaim
}

// NewPersistedQueryLRU is the node's cache of persisted queries, for tests.
var NewPersistedQueryLRU = newPersistedQueryLRU
