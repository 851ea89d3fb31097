package redis

import (
	"context"

	"go.opentelemetry.io/otel/trace"

	"github.com/dealspot/dealspot/internal/tracespan"
)

const tracerName = "github.com/dealspot/dealspot/adapters/redis"

// childSpan is tracespan.Child with this package's tracer.
func childSpan(ctx context.Context, name string, kind trace.SpanKind) (context.Context, trace.Span) {
	return tracespan.Child(ctx, tracerName, name, kind)
}

// endSpan is tracespan.End.
func endSpan(span trace.Span, err error) { tracespan.End(span, err) }
