package redis

import (
	"context"

	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

const tracerName = "github.com/dealspot/dealspot/adapters/redis"

// childSpan starts a span named name under the span ctx carries, with that span's
// tracer, when that span is recorded; otherwise it returns ctx and nil, at no cost: a
// node with tracing off starts nothing here.
func childSpan(ctx context.Context, name string, kind trace.SpanKind) (context.Context, trace.Span) {
	parent := trace.SpanFromContext(ctx)
	if !parent.IsRecording() {
		return ctx, nil
	}
	return parent.TracerProvider().Tracer(tracerName).Start(ctx, name, trace.WithSpanKind(kind))
}

// endSpan ends span (nil: nothing to end), marking it failed when err is not nil.
func endSpan(span trace.Span, err error) {
	if span == nil {
		return
	}
	if err != nil {
		span.RecordError(err)
		span.SetStatus(codes.Error, err.Error())
	}
	span.End()
}
