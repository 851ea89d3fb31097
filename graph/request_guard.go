package graph

import (
	"context"
	"encoding/json"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

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
