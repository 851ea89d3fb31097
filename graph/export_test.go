package graph

import (
	"log/slog"
	"net/http"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator/core"

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

// ValidationWork reports whether the fragment limits of o refuse query before it is
// parsed and, if they do not, how many nodes (fields, fragment spreads, inline fragments,
// values, directive lists) gqlparser's validator visits in it, and how many tokens
// query holds.
func ValidationWork(query string, o Options) (refused bool, visits, tokens int) {
	l := FragmentLimits{MaxFragments: o.MaxFragments, MaxSpreadTokens: o.MaxSpreadTokens, MaxTokens: o.MaxTokens}
	if l.check(query) != nil {
		return true, 0, 0
	}
	defs, _ := scanDefinitions(query, 0)
	for _, d := range defs {
		tokens += d.tokens
	}
	doc, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: query}, o.MaxTokens)
	if err != nil {
		return false, 0, tokens
	}
	var events core.Events
	events.OnField(func(*core.Walker, *ast.Field) { visits++ })
	events.OnFragmentSpread(func(*core.Walker, *ast.FragmentSpread) { visits++ })
	events.OnInlineFragment(func(*core.Walker, *ast.InlineFragment) { visits++ })
	events.OnValue(func(*core.Walker, *ast.Value) { visits++ })
	events.OnDirectiveList(func(*core.Walker, []*ast.Directive) { visits++ })
	core.Walk(generated.NewExecutableSchema(generated.Config{Resolvers: &Resolver{}}).Schema(), doc, &events)
	return false, visits, tokens
}

// NewPersistedQueryLRU is the node's cache of persisted queries, for tests.
var NewPersistedQueryLRU = newPersistedQueryLRU
