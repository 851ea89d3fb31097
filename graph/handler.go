package graph

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/ast"
	"go.opentelemetry.io/otel/trace"

	"github.com/dealspot/dealspot/graph/generated"
	"github.com/dealspot/dealspot/internal/app"
)

// MultipartOverheadBytes is what a multipart request carries beside its file: the
// operations and map parts and the part headers.
const MultipartOverheadBytes = 64 << 10

// Options bounds and shapes the GraphQL handler.
type Options struct {
	MaxDepth       int
	MaxComplexity  int
	MaxAliases     int
	ExecTimeout    time.Duration
	QueryCacheSize int
	// MaxTokens bounds the tokens of a document (parsing stops there).
	MaxTokens int
	// MaxFragments and MaxSpreadTokens bound a document's fragments before it is
	// parsed (see FragmentLimits).
	MaxFragments, MaxSpreadTokens int
	// PageSize and MaxPageSize are the default and largest `first`, which the complexity
	// of paged fields is multiplied by.
	PageSize     int
	MaxPageSize  int
	MaxBodyBytes int64
	// MaxUploadBytes bounds one file of a multipart request (0: no uploads).
	MaxUploadBytes int64
	Introspection  bool
	// Suggestions lets validation errors suggest names ("Did you mean …"); for dev mode
	// only, as they reveal the schema.
	Suggestions bool
	// MaxStringChars bounds, in characters, every string argument and variable.
	MaxStringChars int
	// Websocket bounds websocket connections and their session checks.
	Websocket WebsocketOptions
	// Observe, if set, is told the name and duration of every operation.
	Observe func(ctx context.Context, operation string, d time.Duration, errs int)
	// Loaders shape the dataloaders that batch the graph's edges.
	Loaders LoaderOptions
	// FastClaim answers claimVoucher documents without gqlgen's executor (fastclaim.go).
	FastClaim bool
	// PersistedQueries, if set, is the cache of automatic persisted queries every node
	// shares; this node keeps QueryCacheSize of them in front of it.
	PersistedQueries graphql.Cache[string]
	// APQ bounds the registration of automatic persisted queries.
	APQ APQOptions
	// AllowedOrigins are the origins (scheme://host[:port], lower case), besides the
	// request's own host, whose pages may call the API; any other Origin is refused.
	AllowedOrigins []string
	// Tracer, when set, traces queries and mutations (see Tracing); nil: no tracing.
	Tracer trace.TracerProvider
	// TraceIncoming is what an operation's span does with the request's traceparent:
	// "link" (also when empty), "parent" or "ignore" (see Tracing.Incoming).
	TraceIncoming string
}

// NewHandler builds the GraphQL HTTP handler (POST, GET and graphql-transport-ws) for a.
// Callers authenticate with an Authorization header, or on websockets with the
// connection_init payload.
func NewHandler(a *app.Application, log *slog.Logger, o Options) http.Handler {
	resolver := &Resolver{App: a}
	cfg := generated.Config{Resolvers: resolver}
	cfg.Directives.Auth = authDirective
	sockets := newWebsocketSessions(a.Queries.Authenticate, o.Websocket)
	schema := generated.NewExecutableSchema(cfg)
	srv := newServer(schema, sockets, log, o)
	srv.AroundOperations(withLoaders(a, o.Loaders))
	var h http.Handler = srv
	if o.FastClaim {
		h = newFastClaim(srv, resolver, schema.Schema(), log, o)
	}
	return guardRequests(o.AllowedOrigins, Authentication(a.Queries.Authenticate, sockets.Middleware(codedTransportErrors(h))))
}

// newServer builds the gqlgen server for schema with every transport, limit and
// presenter; it is NewHandler without authentication.
func newServer(schema graphql.ExecutableSchema, sockets *websocketSessions, log *slog.Logger, o Options) *handler.Server {
	srv := handler.New(schema)
	readLimit := o.MaxBodyBytes
	srv.AddTransport(transport.Websocket{
		Implementation:        sockets,
		KeepAlivePingInterval: 10 * time.Second,
		InitFunc:              sockets.Init,
		CloseFunc:             sockets.Closed,
		InitTimeout:           sockets.o.InitTimeout,
		PayloadReadLimit:      &readLimit,
	})
	srv.AddTransport(transport.Options{})
	srv.AddTransport(transport.GET{})
	srv.AddTransport(transport.POST{})
	if o.MaxUploadBytes > 0 {
		// The GraphQL multipart request spec: files beside the operation. A file past
		// the limit is refused; the use case reads at most the limit and a byte more.
		srv.AddTransport(multipartTransport{transport.MultipartForm{MaxUploadSize: o.MaxUploadBytes + MultipartOverheadBytes, MaxMemory: 4 << 20}})
	}
	// Parsed and validated documents are cached, and clients may send a document's hash
	// instead of its text (automatic persisted queries).
	srv.SetQueryCache(lru.New[*ast.QueryDocument](o.QueryCacheSize))
	apq := newPersistedQueries(o.QueryCacheSize, o.APQ.MaxBytes, o.PersistedQueries, log)
	srv.Use(persistedQueryLookup{cache: apq})
	srv.Use(FragmentLimits{MaxFragments: o.MaxFragments, MaxSpreadTokens: o.MaxSpreadTokens, MaxTokens: o.MaxTokens})
	if o.Introspection {
		srv.Use(extension.Introspection{})
	}
	srv.SetParserTokenLimit(o.MaxTokens)
	srv.SetDisableSuggestion(!o.Suggestions)
	srv.SetValidationRulesFn(validationRules(schema.Schema(), ruleOptions{
		maxFields: o.MaxComplexity, suggestions: o.Suggestions, introspection: o.Introspection,
	}))
	srv.Use(uploadsOnly{})
	srv.Use(OperationLimits{
		MaxDepth: o.MaxDepth, MaxAliases: o.MaxAliases, MaxComplexity: o.MaxComplexity,
		PageSize: o.PageSize, MaxPageSize: o.MaxPageSize, MaxStringChars: o.MaxStringChars,
	})
	if o.Tracer != nil {
		srv.Use(Tracing{Tracer: o.Tracer.Tracer(tracerName), Incoming: o.TraceIncoming})
	}
	// Last of the operation context mutators: a persisted query is registered only once
	// everything before it accepted the operation.
	srv.Use(persistedQueryRegistration{cache: apq, maxBytes: o.APQ.MaxDocumentBytes, limit: newRegistrationLimit(o.APQ)})
	srv.SetErrorPresenter(ErrorPresenter(log))
	srv.SetRecoverFunc(RecoverFunc(log))
	srv.AroundOperations(sockets.AroundOperations)
	srv.AroundOperations(func(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
		oc := graphql.GetOperationContext(ctx)
		if oc.Operation != nil && oc.Operation.Operation == ast.Subscription {
			return next(ctx)
		}
		// Queries and mutations get one deadline for their whole execution; their
		// resolvers run when the response handler is called, under its context.
		// Subscriptions live as long as their connection.
		start := time.Now()
		h := next(ctx)
		return func(rctx context.Context) *graphql.Response {
			rctx, rcancel := context.WithDeadline(rctx, start.Add(o.ExecTimeout))
			defer rcancel()
			resp := h(rctx)
			if resp != nil && o.Observe != nil {
				o.Observe(rctx, operationName(oc), time.Since(start), len(resp.Errors))
			}
			return resp
		}
	})
	return srv
}

// operationName labels an operation for metrics: its name, or its type when anonymous.
func operationName(oc *graphql.OperationContext) string {
	switch {
	case oc.OperationName != "":
		return oc.OperationName
	case oc.Operation != nil && oc.Operation.Name != "":
		return oc.Operation.Name
	case oc.Operation != nil:
		return "anonymous_" + string(oc.Operation.Operation)
	}
	return "invalid"
}
