package seckill

import (
	"context"

	"go.opentelemetry.io/otel/trace"

	"github.com/dealspot/dealspot/internal/tracespan"
)

const tracerName = "github.com/dealspot/dealspot/internal/app/seckill"

// childSpan is tracespan.Child with this package's tracer, for an internal span.
func childSpan(ctx context.Context, name string) (context.Context, trace.Span) {
	return tracespan.Child(ctx, tracerName, name, trace.SpanKindInternal)
}

// endSpan is tracespan.End.
func endSpan(span trace.Span, err error) { tracespan.End(span, err) }
