// Package tracespan starts the spans of a claim's hops below its root: each hop starts
// one only when the context already carries a recorded span, so a node with tracing off
// starts and allocates nothing on the claim path.
//
// It is a library over the OpenTelemetry API and, like that API, sits below the layers:
// the use cases (internal/app/seckill) and the adapters (redis, queue) both use it, and
// it imports nothing but the standard library and the API (archcheck holds it there).
package tracespan

import (
	"context"

	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// Child starts a span named name of kind under the span ctx carries, with that span's
// tracer provider and the tracer named tracer, when that span is recorded; otherwise it
// returns ctx and nil.
func Child(ctx context.Context, tracer, name string, kind trace.SpanKind) (context.Context, trace.Span) {
	parent := trace.SpanFromContext(ctx)
	if !parent.IsRecording() {
		return ctx, nil
	}
	return parent.TracerProvider().Tracer(tracer).Start(ctx, name, trace.WithSpanKind(kind))
}

// End ends span (nil: nothing to end), marking it failed when err is not nil.
func End(span trace.Span, err error) {
	if span == nil {
		return
	}
	if err != nil {
		span.RecordError(err)
		span.SetStatus(codes.Error, err.Error())
	}
	span.End()
}
