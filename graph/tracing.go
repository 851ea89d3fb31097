package graph

import (
	"cmp"
	"context"
	"net/http"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

const tracerName = "github.com/dealspot/dealspot/graph"

// Tracing is the gqlgen extension that starts a trace for every query and mutation: a
// server span for the operation — the root of a trace of its own, linked to the span of a
// W3C traceparent the request carries, so that clients cannot choose what is sampled;
// or, with Incoming "parent" (a trusted gateway in front), a child of it — and a span for each
// top-level field that has a resolver (Mutation.claimVoucher …), under which the use
// cases add theirs. Nested fields get none: a list of shops would otherwise cost a span
// per row. Subscriptions live as long as their socket and get no span.
//
// It is installed only when tracing is on (Options.Tracer).
type Tracing struct {
	Tracer trace.Tracer
	// Incoming: "link" (also when empty), "parent" or "ignore".
	Incoming string
}

var traceContext propagation.TraceContext

// startOperation starts an operation's server span, with the request's traceparent
// (in h) as a link, as its parent, or ignored, as incoming says.
func startOperation(ctx context.Context, tracer trace.Tracer, incoming string, h http.Header, name string, attrs []attribute.KeyValue) (context.Context, trace.Span) {
	opts := []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(attrs...)}
	if incoming != "ignore" && h.Get("traceparent") != "" {
		if sc := trace.SpanContextFromContext(traceContext.Extract(context.Background(), propagation.HeaderCarrier(h))); sc.IsValid() {
			if incoming == "parent" {
				ctx = trace.ContextWithRemoteSpanContext(ctx, sc)
			} else {
				opts = append(opts, trace.WithLinks(trace.Link{SpanContext: sc}))
			}
		}
	}
	return tracer.Start(ctx, name, opts...)
}

var (
	_ graphql.HandlerExtension    = Tracing{}
	_ graphql.ResponseInterceptor = Tracing{}
	_ graphql.FieldInterceptor    = Tracing{}
)

// ExtensionName implements graphql.HandlerExtension.
func (Tracing) ExtensionName() string { return "Tracing" }

// Validate implements graphql.HandlerExtension.
func (Tracing) Validate(graphql.ExecutableSchema) error { return nil }

// InterceptResponse implements graphql.ResponseInterceptor: it spans the execution of
// one query or mutation.
func (t Tracing) InterceptResponse(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	if !graphql.HasOperationContext(ctx) {
		return next(ctx)
	}
	oc := graphql.GetOperationContext(ctx)
	if oc.Operation == nil || oc.Operation.Operation == ast.Subscription {
		return next(ctx)
	}
	kind := string(oc.Operation.Operation)
	spanName, attrs := kind, []attribute.KeyValue{attribute.String("graphql.operation.type", kind)}
	if name := cmp.Or(oc.OperationName, oc.Operation.Name); name != "" {
		spanName += " " + name
		attrs = append(attrs, attribute.String("graphql.operation.name", name))
	}
	ctx, span := startOperation(ctx, t.Tracer, t.Incoming, oc.Headers, spanName, attrs)
	defer span.End()
	resp := next(ctx)
	if resp != nil && len(resp.Errors) > 0 {
		span.SetAttributes(attribute.Int("graphql.errors", len(resp.Errors)))
		span.SetStatus(codes.Error, resp.Errors[0].Message)
	}
	return resp
}

// InterceptField implements graphql.FieldInterceptor: a span for each top-level field
// that has a resolver, inside a recorded operation.
func (t Tracing) InterceptField(ctx context.Context, next graphql.Resolver) (any, error) {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || !fc.IsResolver || (fc.Object != "Query" && fc.Object != "Mutation") ||
		!trace.SpanFromContext(ctx).IsRecording() {
		return next(ctx)
	}
	ctx, span := t.Tracer.Start(ctx, fc.Object+"."+fc.Field.Name,
		trace.WithAttributes(attribute.String("graphql.field.path", fc.Path().String())))
	defer span.End()
	res, err := next(ctx)
	if err != nil {
		span.SetStatus(codes.Error, err.Error())
	}
	return res, err
}
