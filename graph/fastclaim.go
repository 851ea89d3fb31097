package graph

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
	"github.com/vektah/gqlparser/v2/validator/rules"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/dealspot/dealspot/graph/model"
)

// The claim's fast path.
//
// A flash sale's flood is one operation sent tens of thousands of times a second:
// `mutation … { claimVoucher(voucherId: …) { orderId status } }`. Through gqlgen's
// generic executor each one builds an operation context, field contexts, a field set and
// a deferred response, about a sixth of the server's CPU per accepted claim. fastClaim
// answers the documents that hold exactly that operation directly: it recognises the
// document once per distinct text (parsed and validated with the same rules and limits
// as gqlgen would apply), then calls claimVoucher below, the claim's one implementation,
// which gqlgen's resolver calls too, under the same @auth directive, deadline, error
// presenter and panic recovery, and writes the same JSON. Everything else — other
// operations, a document it does not recognise, a variable of another shape, an
// operation name that does not match, persisted-query extensions — goes to gqlgen
// unchanged, which also gives every error its usual wording.
//
// The shape it answers: one mutation operation without directives, no fragments, one
// root field claimVoucher (any alias, no directives) with the single argument voucherId,
// given as a string literal or as the one variable `$x: ID!` (no default) sent as a JSON
// string; a selection of orderId, status and __typename (aliases allowed, each response
// key once). CLAIM_FAST_PATH=false sends every claim through gqlgen.

// claimDoc is a recognised claim document.
type claimDoc struct {
	opName string // the operation's own name, "" when anonymous
	alias  string // the root field's response key
	// field is the root field, for errors' path and location.
	field    *ast.Field
	variable string // the voucherId variable's name, "" for a literal
	literal  string // the voucherId literal
	// fields are the selection's response keys and what each one is.
	fields []claimField
}

type claimField struct {
	key  string
	kind byte // 'o' orderId, 's' status, 't' __typename
}

// notClaim marks a document seen and not recognised.
var notClaim = &claimDoc{}

// fastClaimDocs bounds the documents remembered (recognised or not).
const fastClaimDocs = 256

type fastClaim struct {
	next     http.Handler
	resolver *Resolver
	schema   *ast.Schema
	rules    func() *rules.Rules
	limits   OperationLimits
	opts     Options
	present  graphql.ErrorPresenterFunc
	recover  graphql.RecoverFunc
	docs     *lru.LRU[*claimDoc]
	// tracer spans the operation and its field as the Tracing extension would (nil:
	// tracing off).
	tracer trace.Tracer
	bufs   sync.Pool
}

func newFastClaim(next http.Handler, r *Resolver, schema *ast.Schema, log *slog.Logger, o Options) *fastClaim {
	return &fastClaim{
		next:     next,
		resolver: r,
		schema:   schema,
		rules: validationRules(schema, ruleOptions{
			maxFields: o.MaxComplexity, suggestions: o.Suggestions, introspection: o.Introspection,
		}),
		limits: OperationLimits{
			MaxDepth: o.MaxDepth, MaxAliases: o.MaxAliases, MaxComplexity: o.MaxComplexity,
			PageSize: o.PageSize, MaxPageSize: o.MaxPageSize, MaxStringChars: o.MaxStringChars,
		},
		opts:    o,
		present: ErrorPresenter(log),
		recover: RecoverFunc(log),
		docs:    lru.New[*claimDoc](fastClaimDocs),
		bufs:    sync.Pool{New: func() any { return new(bytes.Buffer) }},
		tracer:  tracerOf(o),
	}
}

func tracerOf(o Options) trace.Tracer {
	if o.Tracer == nil {
		return nil
	}
	return o.Tracer.Tracer(tracerName)
}

// claimMarker is in the body of every request the fast path may answer.
var claimMarker = []byte("claimVoucher")

func (f *fastClaim) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.Body == nil || r.Header.Get("Upgrade") != "" || !jsonRequest(r) || !jsonAccepted(r) {
		f.next.ServeHTTP(w, r)
		return
	}
	buf := f.bufs.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf.Cap() <= 64<<10 {
			f.bufs.Put(buf)
		}
	}()
	if _, err := buf.ReadFrom(r.Body); err != nil {
		// gqlgen answers an unreadable (or oversized) body: it reads the rest, which
		// fails the same way.
		r.Body = readerCloser{io.MultiReader(bytes.NewReader(buf.Bytes()), r.Body), r.Body}
		f.next.ServeHTTP(w, r)
		return
	}
	body := buf.Bytes()
	if !bytes.Contains(body, claimMarker) || !f.serve(w, r, body) {
		r.Body = readerCloser{bytes.NewReader(body), r.Body}
		f.next.ServeHTTP(w, r)
	}
}

// readerCloser reads from one reader and closes the original body.
type readerCloser struct {
	io.Reader
	io.Closer
}

// jsonRequest reports whether the body is JSON, as gqlgen's POST transport requires.
func jsonRequest(r *http.Request) bool {
	ct := r.Header.Get("Content-Type")
	if ct == "application/json" {
		return true
	}
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && mt == "application/json"
}

// jsonAccepted reports whether gqlgen would answer application/json (not
// application/graphql-response+json, whose status codes differ).
func jsonAccepted(r *http.Request) bool {
	switch r.Header.Get("Accept") {
	case "", "*/*", "application/json", "application/json, */*":
		return true
	}
	return false
}

// claimParams is the part of a GraphQL request body the fast path reads.
type claimParams struct {
	Query         string          `json:"query"`
	OperationName string          `json:"operationName"`
	Variables     json.RawMessage `json:"variables"`
	Extensions    json.RawMessage `json:"extensions"`
}

// serve answers body if it is a recognised claim and reports whether it did.
func (f *fastClaim) serve(w http.ResponseWriter, r *http.Request, body []byte) bool {
	var p claimParams
	if err := json.Unmarshal(body, &p); err != nil || !isJSONNull(p.Extensions) {
		return false
	}
	ctx := r.Context()
	doc := f.recognise(ctx, p.Query)
	if doc == notClaim || (p.OperationName != "" && p.OperationName != doc.opName) {
		return false
	}
	voucherID := doc.literal
	if doc.variable != "" {
		var ok bool
		if voucherID, ok = stringVariable(p.Variables, doc.variable); !ok {
			return false
		}
		if max := f.limits.MaxStringChars; max > 0 && !stringsWithin(voucherID, max) {
			return false
		}
	}
	name := cmp.Or(p.OperationName, doc.opName)
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(f.execute(ctx, r.Header, doc, name, voucherID))
	return true
}

// execute runs the claim as gqlgen's generated code would: the @auth directive, then
// claimVoucher, under the operation's deadline, a panic turned into an internal error.
func (f *fastClaim) execute(ctx context.Context, h http.Header, doc *claimDoc, name, voucherID string) []byte {
	start := time.Now()
	rctx, cancel := context.WithDeadline(ctx, start.Add(f.opts.ExecTimeout))
	defer cancel()
	var opSpan, fieldSpan trace.Span
	if f.tracer != nil {
		rctx, opSpan, fieldSpan = f.startSpans(rctx, h, doc, name)
	}
	payload, err := f.claim(rctx, voucherID)
	if fieldSpan != nil {
		if err != nil {
			fieldSpan.SetStatus(codes.Error, err.Error())
		}
		fieldSpan.End()
	}
	var out []byte
	errs := 0
	if err != nil {
		errs = 1
		// A field context of its own: WithFieldContext links it to its parent.
		fctx := graphql.WithFieldContext(rctx, &graphql.FieldContext{Object: "Mutation",
			Field: graphql.CollectedField{Field: doc.field}, IsMethod: true, IsResolver: true})
		gqlErr := f.present(fctx, graphql.AddFieldLocationToError(fctx, err))
		var merr error
		if out, merr = json.Marshal(&graphql.Response{Errors: gqlerror.List{gqlErr}, Data: json.RawMessage("null")}); merr != nil {
			out = []byte(`{"errors":[{"message":"internal error","extensions":{"code":"INTERNAL"}}],"data":null}`)
		}
		if opSpan != nil {
			opSpan.SetAttributes(attribute.Int("graphql.errors", errs))
			opSpan.SetStatus(codes.Error, gqlErr.Message)
		}
	} else {
		out = doc.marshal(payload.OrderID, string(payload.Status))
	}
	if opSpan != nil {
		opSpan.End()
	}
	if f.opts.Observe != nil {
		f.opts.Observe(rctx, cmp.Or(name, "anonymous_mutation"), time.Since(start), errs)
	}
	return out
}

// startSpans starts the spans the Tracing extension starts for a mutation and its
// top-level field.
func (f *fastClaim) startSpans(ctx context.Context, h http.Header, doc *claimDoc, name string) (context.Context, trace.Span, trace.Span) {
	spanName, attrs := "mutation", []attribute.KeyValue{attribute.String("graphql.operation.type", "mutation")}
	if name != "" {
		spanName += " " + name
		attrs = append(attrs, attribute.String("graphql.operation.name", name))
	}
	ctx, op := startOperation(ctx, f.tracer, f.opts.TraceIncoming, h, spanName, attrs)
	ctx, field := f.tracer.Start(ctx, "Mutation.claimVoucher", trace.WithAttributes(attribute.String("graphql.field.path", doc.alias)))
	return ctx, op, field
}

func (f *fastClaim) claim(ctx context.Context, voucherID string) (payload *model.ClaimPayload, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = f.recover(ctx, p)
		}
	}()
	res, err := authDirective(ctx, nil, func(ctx context.Context) (any, error) {
		return f.resolver.claimVoucher(ctx, voucherID)
	}, nil)
	if err != nil {
		return nil, err
	}
	out, ok := res.(*model.ClaimPayload)
	if !ok || out == nil {
		return nil, errors.New("claimVoucher answered no payload")
	}
	return out, nil
}

// claimVoucher is the claim mutation, on either path: the fast path calls it under the
// @auth directive, and so does gqlgen through the resolver (flashsale.resolvers.go).
func (r *Resolver) claimVoucher(ctx context.Context, voucherID string) (*model.ClaimPayload, error) {
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	vid, err := parseID("voucherId", voucherID)
	if err != nil {
		return nil, err
	}
	res, err := r.App.Commands.ClaimVoucher.Handle(ctx, p.UserID, vid)
	if err != nil {
		return nil, err
	}
	return &model.ClaimPayload{OrderID: formatID(res.OrderID), Status: model.OrderStatus(res.Status)}, nil
}

// marshal writes the response data for one claim, keys in the selection's order.
func (d *claimDoc) marshal(orderID, status string) []byte {
	b := make([]byte, 0, 64+len(orderID))
	b = append(b, `{"data":{"`...)
	b = append(b, d.alias...)
	b = append(b, `":{`...)
	for i, fl := range d.fields {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, fl.key...)
		b = append(b, `":`...)
		switch fl.kind {
		case 'o':
			b = strconv.AppendQuote(b, orderID)
		case 's':
			b = strconv.AppendQuote(b, status)
		default:
			b = append(b, `"ClaimPayload"`...)
		}
	}
	return append(b, "}}}"...)
}

// recognise returns query's claimDoc, or notClaim.
func (f *fastClaim) recognise(ctx context.Context, query string) *claimDoc {
	if d, ok := f.docs.Get(ctx, query); ok {
		return d
	}
	d := f.classify(query)
	f.docs.Add(ctx, query, d)
	return d
}

func (f *fastClaim) classify(query string) *claimDoc {
	doc, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: query}, f.opts.MaxTokens)
	if err != nil || len(doc.Operations) != 1 || len(doc.Fragments) != 0 {
		return notClaim
	}
	op := doc.Operations[0]
	if op.Operation != ast.Mutation || len(op.Directives) != 0 || len(op.SelectionSet) != 1 || len(op.VariableDefinitions) > 1 {
		return notClaim
	}
	field, ok := op.SelectionSet[0].(*ast.Field)
	if !ok || field.Name != "claimVoucher" || len(field.Directives) != 0 || len(field.Arguments) != 1 ||
		field.Arguments[0].Name != "voucherId" {
		return notClaim
	}
	d := &claimDoc{opName: op.Name, alias: field.Alias}
	if d.alias == "" {
		d.alias = field.Name
		field.Alias = field.Name
	}
	d.field = field
	switch v := field.Arguments[0].Value; v.Kind {
	case ast.StringValue:
		if len(op.VariableDefinitions) != 0 {
			return notClaim
		}
		d.literal = v.Raw
	case ast.Variable:
		if len(op.VariableDefinitions) != 1 {
			return notClaim
		}
		vd := op.VariableDefinitions[0]
		if vd.Variable != v.Raw || vd.DefaultValue != nil || len(vd.Directives) != 0 ||
			vd.Type == nil || vd.Type.NamedType != "ID" || !vd.Type.NonNull {
			return notClaim
		}
		d.variable = vd.Variable
	default:
		return notClaim
	}
	seen := map[string]bool{}
	for _, s := range field.SelectionSet {
		sf, ok := s.(*ast.Field)
		if !ok || len(sf.Directives) != 0 || len(sf.Arguments) != 0 || len(sf.SelectionSet) != 0 {
			return notClaim
		}
		key := sf.Alias
		if key == "" {
			key = sf.Name
		}
		if seen[key] {
			return notClaim
		}
		seen[key] = true
		switch sf.Name {
		case "orderId":
			d.fields = append(d.fields, claimField{key, 'o'})
		case "status":
			d.fields = append(d.fields, claimField{key, 's'})
		case "__typename":
			d.fields = append(d.fields, claimField{key, 't'})
		default:
			return notClaim
		}
	}
	if len(d.fields) == 0 {
		return notClaim
	}
	// The same validation and limits gqlgen applies; a document they refuse is gqlgen's
	// to answer.
	if errs := validator.ValidateWithRules(f.schema, doc, f.rules()); len(errs) != 0 {
		return notClaim
	}
	m := newMeasurer(doc.Fragments, nil, f.limits.PageSize, f.limits.MaxPageSize)
	m.maxString = f.limits.MaxStringChars
	c := m.set(op.SelectionSet)
	if m.badInput != nil || c.depth > f.limits.MaxDepth || c.aliases > int64(f.limits.MaxAliases) || c.total() > int64(f.limits.MaxComplexity) {
		return notClaim
	}
	if d.literal != "" && f.limits.MaxStringChars > 0 && !stringsWithin(d.literal, f.limits.MaxStringChars) {
		return notClaim
	}
	return d
}

// stringVariable returns variable name of vars if it is a JSON string.
func stringVariable(vars json.RawMessage, name string) (string, bool) {
	if len(vars) == 0 {
		return "", false
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(vars, &m); err != nil {
		return "", false
	}
	raw, ok := m[name]
	if !ok || len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false
	}
	return s, true
}

func isJSONNull(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) == 0 || string(raw) == "null" || string(raw) == "{}"
}

// stringsWithin reports whether every string in v is at most max characters long
// (0: any length) and holds no NUL character.
func stringsWithin(v any, max int) bool { return stringsFault(v, max) == "" }
