package graph

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"go.opentelemetry.io/otel/trace"

	"github.com/dealspot/dealspot/graph/generated"
	"github.com/dealspot/dealspot/graph/model"
	"github.com/dealspot/dealspot/internal/app"
	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/reqmeta"
)

// The GraphQL HTTP handler. NewHandler chains what every request to /graphql passes,
// outermost first; the sections below follow that order:
//
//  1. guardRequests: nosniff on every answer; the Origin; a preflight header on a POST
//     that is not JSON.
//     Then the response cache (response_cache.go), when Options.ResponseCache is set:
//     it answers repeated public queries itself.
//  2. Authentication: the Authorization header becomes the request's caller, which the
//     @auth directive (authDirective) and the resolvers read.
//  3. websocketSessions.Middleware: websocket upgrades stop here (websocket.go serves
//     them); every other request passes.
//  4. codedTransportErrors: an extensions.code on the errors gqlgen's transports write.
//  5. The claim's fast path (fastclaim.go), when Options.FastClaim is set: it answers
//     claimVoucher documents itself and hands everything else on to
//  6. gqlgen's server (newServer), with its transports, limits and presenters.

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
	// ResponseCache, when set, replays the answers of public queries (response_cache.go).
	ResponseCache *ResponseCache
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
	return guardRequests(o.AllowedOrigins, o.ResponseCache.Middleware(Authentication(a.Queries.Authenticate, sockets.Middleware(codedTransportErrors(h)))))
}

// 1. guardRequests: what a request may do, decided from its origin, method and content
// type before anything reads it.

// requestKind is how a request reached /graphql: it decides what the request may do.
type requestKind int

const (
	// kindOther: a JSON POST, a websocket, or a request with no HTTP behind it.
	kindOther requestKind = iota
	// kindGET: a link or an image on any site can send one; it runs queries and never
	// registers a persisted query.
	kindGET
	// kindMultipart: a form on any site can post one; it needs a preflight header and
	// may only upload files.
	kindMultipart
)

type requestKindKey struct{}

func requestKindFrom(ctx context.Context) requestKind {
	k, _ := ctx.Value(requestKindKey{}).(requestKind)
	return k
}

// preflightHeaders are the headers that make a browser ask before sending a request
// across origins (none is CORS-safelisted); a multipart request must carry one.
// GraphQL-Require-Preflight is the GraphQL over HTTP convention, the others Apollo's.
var preflightHeaders = []string{"GraphQL-Require-Preflight", "Apollo-Require-Preflight", "X-Apollo-Operation-Name"}

// guardRequests is the first thing /graphql does with a request. Every answer gets
// X-Content-Type-Options: nosniff. A request whose Origin is neither the request's own
// host nor one of allowed is refused (403). A POST that a page of another site could
// send without a preflight — multipart/form-data, form-encoded, text/plain — is refused
// (400) unless it carries one of preflightHeaders. What the request may do next is told
// to the operation by its requestKind (see uploadsOnly and the persisted queries).
func guardRequests(allowed []string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		if r.Header.Get("Upgrade") != "" {
			// The websocket transport checks the origin of its handshake itself.
			next.ServeHTTP(w, r)
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" && !originAllowed(origin, r.Host, allowed) {
			refuse(w, http.StatusForbidden, "requests from the origin "+quoteShort(origin)+" are not allowed")
			return
		}
		kind := kindOther
		switch r.Method {
		case http.MethodGet:
			kind = kindGET
		case http.MethodPost:
			mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
			if mt == "application/json" {
				break
			}
			if mt == "multipart/form-data" {
				kind = kindMultipart
			}
			if !hasPreflightHeader(r) {
				refuse(w, http.StatusBadRequest, "a POST that is not application/json needs a GraphQL-Require-Preflight header")
				return
			}
		}
		if kind != kindOther {
			// kindOther is what requestKindFrom answers for a context without a kind: a
			// JSON POST, every claim among them, goes on without a copy of its request.
			r = r.WithContext(context.WithValue(r.Context(), requestKindKey{}, kind))
		}
		next.ServeHTTP(w, r)
	})
}

// originAllowed reports whether a page of origin may call the API at host: the same
// host (whatever the scheme, a proxy may end TLS), or one of allowed.
func originAllowed(origin, host string, allowed []string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false // "null" (sandboxed pages, files) included
	}
	if strings.EqualFold(u.Host, host) {
		return true
	}
	canonical := strings.ToLower(u.Scheme + "://" + u.Host)
	for _, a := range allowed {
		if a == canonical {
			return true
		}
	}
	return false
}

func hasPreflightHeader(r *http.Request) bool {
	for _, h := range preflightHeaders {
		if r.Header.Get(h) != "" {
			return true
		}
	}
	return false
}

func quoteShort(s string) string {
	if len(s) > 100 {
		s = s[:100]
	}
	b, _ := json.Marshal(s)
	return string(b)
}

// refuse answers a request the guard does not let through.
func refuse(w http.ResponseWriter, status int, message string) {
	body, _ := json.Marshal(map[string]any{"data": nil, "errors": []any{map[string]any{
		"message": message, "extensions": map[string]any{"code": CodeBadRequest},
	}}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// 2. Authentication: who the request speaks for, and the @auth directive that asks.

// caller is who the request speaks for: a principal, nobody (no token), or the reason a
// presented token was refused.
type caller struct {
	principal auth.Principal
	err       error
}

type callerKey struct{}

func withCaller(ctx context.Context, c caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

func callerFrom(ctx context.Context) caller {
	c, _ := ctx.Value(callerKey{}).(caller)
	return c
}

// principal returns the authenticated caller, or UNAUTHENTICATED.
func principal(ctx context.Context) (auth.Principal, error) {
	c := callerFrom(ctx)
	switch {
	case c.err != nil:
		return auth.Principal{}, c.err
	case c.principal.UserID <= 0:
		return auth.Principal{}, domain.Errorf(domain.CodeUnauthenticated, "log in first")
	}
	return c.principal, nil
}

// authenticate resolves an Authorization value; an empty one is an anonymous caller.
// Errors other than a refused token (the session store being down, say) pass through.
func authenticate(ctx context.Context, a *auth.Authenticate, header string) (caller, error) {
	if header == "" {
		return caller{}, nil
	}
	p, err := a.Handle(ctx, header)
	if err == nil {
		return caller{principal: p}, nil
	}
	if domain.ErrorCode(err) == domain.CodeUnauthenticated {
		return caller{err: err}, nil
	}
	return caller{}, err
}

// Authentication reads the Authorization header of HTTP requests. A refused token does
// not fail the request: fields that need a caller answer UNAUTHENTICATED, public fields
// still answer.
func Authentication(a *auth.Authenticate, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := authenticate(r.Context(), a, r.Header.Get("Authorization"))
		if err != nil {
			c = caller{err: err}
		}
		next.ServeHTTP(w, r.WithContext(withCaller(r.Context(), c)))
	})
}

// authDirective implements @auth(requires: Role).
func authDirective(ctx context.Context, _ any, next graphql.Resolver, requires *model.Role) (any, error) {
	role := domain.RoleUser
	if requires != nil {
		role = domain.Role(*requires)
	}
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	if !p.Allows(role) {
		return nil, domain.Errorf(domain.CodeForbidden, "this needs the %s role", role)
	}
	return next(ctx)
}

// 3. The websocket sessions' Middleware: an upgrade is served by the websocket transport
// (websocket.go); any other request passes on.

// Middleware gives every websocket upgrade request a socket record, which Accept and Init
// fill in. The connection counts against the per-IP and total limits from here on, so
// that upgrades which never send connection_init count too; one over a limit is refused
// with 429 before it is upgraded. The transport serves a connection until it closes.
func (w *websocketSessions) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Upgrade") == "" {
			next.ServeHTTP(rw, r)
			return
		}
		release, refusal := w.limits.upgrade(reqmeta.From(r.Context()).ClientIP)
		if refusal != "" {
			refuseUpgrade(rw, refusal)
			return
		}
		defer release()
		r = r.WithContext(context.WithValue(r.Context(), socketKey{}, &socket{sessions: w, ended: make(chan struct{})}))
		next.ServeHTTP(rw, r)
	})
}

// 4. codedTransportErrors: an extensions.code on every error answer gqlgen's transports
// write themselves.

// CodeBadRequest is the extensions.code of a request the transports could not take: a
// body that is not JSON, an unsupported method or content type, a mutation over GET.
const CodeBadRequest = string(domain.CodeBadRequest)

// codedTransportErrors gives the errors gqlgen's transports write themselves (status 400
// and above) an extensions.code, and cuts the request body some of them echo ("… body:
// <the request>"). Answers below 400 pass through untouched; websocket upgrades are not
// wrapped at all.
func codedTransportErrors(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Upgrade") != "" {
			next.ServeHTTP(w, r)
			return
		}
		ew := &errorWriter{ResponseWriter: w}
		next.ServeHTTP(ew, r)
		ew.finish()
	})
}

// errorWriter holds back an answer whose status is 400 or above, to rewrite it.
type errorWriter struct {
	http.ResponseWriter
	status int
	held   bytes.Buffer
}

func (e *errorWriter) WriteHeader(code int) {
	if e.status != 0 {
		return
	}
	e.status = code
	if code < http.StatusBadRequest {
		e.ResponseWriter.WriteHeader(code)
	}
}

func (e *errorWriter) Write(b []byte) (int, error) {
	if e.status == 0 {
		e.WriteHeader(http.StatusOK)
	}
	if e.status >= http.StatusBadRequest {
		return e.held.Write(b)
	}
	return e.ResponseWriter.Write(b)
}

// Flush passes through only answers that are not held back.
func (e *errorWriter) Flush() {
	if e.status < http.StatusBadRequest {
		if f, ok := e.ResponseWriter.(http.Flusher); ok {
			f.Flush()
		}
	}
}

func (e *errorWriter) Unwrap() http.ResponseWriter { return e.ResponseWriter }

func (e *errorWriter) finish() {
	if e.status < http.StatusBadRequest {
		return
	}
	body := codedErrorBody(e.held.Bytes())
	h := e.ResponseWriter.Header()
	h.Del("Content-Length")
	h.Set("Content-Type", "application/json")
	e.ResponseWriter.WriteHeader(e.status)
	_, _ = e.ResponseWriter.Write(body)
}

// codedErrorBody returns body with a code on every error and no echo of the request. A
// body that is not a GraphQL error answer becomes a plain BAD_REQUEST one.
func codedErrorBody(body []byte) []byte {
	var answer map[string]json.RawMessage
	var errs []map[string]any
	if json.Unmarshal(body, &answer) != nil || json.Unmarshal(answer["errors"], &errs) != nil || len(errs) == 0 {
		answer = map[string]json.RawMessage{"data": json.RawMessage("null")}
		errs = []map[string]any{{"message": "bad request"}}
	}
	for _, e := range errs {
		if msg, ok := e["message"].(string); ok {
			// The POST transport appends the whole request to decoding errors.
			msg, _, _ = strings.Cut(msg, " body:")
			e["message"] = msg
		}
		ext, _ := e["extensions"].(map[string]any)
		if ext == nil {
			ext = map[string]any{}
			e["extensions"] = ext
		}
		if _, ok := ext["code"]; !ok {
			ext["code"] = CodeBadRequest
		}
	}
	var err error
	if answer["errors"], err = json.Marshal(errs); err == nil {
		var out []byte
		if out, err = json.Marshal(answer); err == nil {
			return out
		}
	}
	return []byte(`{"errors":[{"message":"bad request","extensions":{"code":"BAD_REQUEST"}}],"data":null}`)
}

// 6. gqlgen's server: what every request the fast path (5, fastclaim.go) does not answer
// reaches, with the transports, extensions and presenters it runs. uploadsOnly and
// multipartTransport, at the end, finish for multipart requests what guardRequests (1)
// began.

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
	if o.ResponseCache != nil {
		srv.AroundOperations(o.ResponseCache.aroundOperations)
		srv.AroundRootFields(o.ResponseCache.aroundRootFields)
	}
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

// uploadsOnly refuses, before it runs, an operation that came as a multipart request but
// uploads no file: only a mutation with an Upload variable that holds a file.
type uploadsOnly struct{}

var _ interface {
	graphql.OperationContextMutator
	graphql.HandlerExtension
} = uploadsOnly{}

func (uploadsOnly) ExtensionName() string                   { return "UploadsOnly" }
func (uploadsOnly) Validate(graphql.ExecutableSchema) error { return nil }

func (uploadsOnly) MutateOperationContext(ctx context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if requestKindFrom(ctx) != kindMultipart {
		return nil
	}
	if oc.Operation != nil && oc.Operation.Operation == ast.Mutation {
		for _, v := range oc.Operation.VariableDefinitions {
			if namedType(v.Type) == "Upload" && holdsUpload(oc.Variables[v.Variable]) {
				return nil
			}
		}
	}
	err := gqlerror.Errorf("a multipart request must be a mutation that uploads a file; send other operations as application/json")
	errcode.Set(err, CodeBadRequest)
	return err
}

func namedType(t *ast.Type) string {
	for t != nil && t.Elem != nil {
		t = t.Elem
	}
	if t == nil {
		return ""
	}
	return t.NamedType
}

// holdsUpload reports whether v is a file or a list holding one.
func holdsUpload(v any) bool {
	switch v := v.(type) {
	case graphql.Upload, *graphql.Upload:
		return true
	case []any:
		for _, e := range v {
			if holdsUpload(e) {
				return true
			}
		}
	}
	return false
}

// multipartTransport is gqlgen's multipart transport, except that a map naming a path the
// operations do not hold — gqlgen panics placing the file there (a nil map, a list index
// out of range) — is answered 422 BAD_REQUEST instead of a 500.
type multipartTransport struct{ transport.MultipartForm }

func (m multipartTransport) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	tw := &writeTracker{ResponseWriter: w}
	defer func() {
		if p := recover(); p != nil {
			if p == http.ErrAbortHandler || tw.wrote {
				panic(p)
			}
			refuse(w, http.StatusUnprocessableEntity, "the multipart map names a path the operations do not have")
		}
	}()
	m.MultipartForm.Do(tw, r, exec)
}

// writeTracker notes whether anything of the answer was written.
type writeTracker struct {
	http.ResponseWriter
	wrote bool
}

func (t *writeTracker) WriteHeader(code int) { t.wrote = true; t.ResponseWriter.WriteHeader(code) }
func (t *writeTracker) Write(b []byte) (int, error) {
	t.wrote = true
	return t.ResponseWriter.Write(b)
}
func (t *writeTracker) Unwrap() http.ResponseWriter { return t.ResponseWriter }
