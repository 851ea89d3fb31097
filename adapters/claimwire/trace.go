package claimwire

import (
	"context"

	"github.com/vmihailenco/msgpack"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// A claim's trace context travels in its order message's metadata as W3C Trace Context
// (traceparent, tracestate), whatever the backend: Watermill metadata on the memory
// Pub/Sub, AMQP headers, Kafka headers, and the msgpack "metadata" field of a Redis
// stream entry (which the gate's script writes itself, see EncodeMetadata).
var traceContext propagation.TraceContext

// InjectTrace writes the sampled span of ctx into md; it writes nothing when ctx
// carries no recorded span, so untraced claims carry no extra metadata.
func InjectTrace(ctx context.Context, md map[string]string) {
	if !trace.SpanFromContext(ctx).IsRecording() {
		return
	}
	traceContext.Inject(ctx, propagation.MapCarrier(md))
}

// ExtractTrace returns the span context md carries (not valid when it carries none).
func ExtractTrace(md map[string]string) trace.SpanContext {
	if md["traceparent"] == "" {
		return trace.SpanContext{}
	}
	return trace.SpanContextFromContext(traceContext.Extract(context.Background(), propagation.MapCarrier(md)))
}

// TraceMetadata is the stream entry's "metadata" field for a claim traced in ctx: the
// msgpack map the Redis Streams subscriber decodes into Watermill metadata, or nil (the
// field is then empty) when ctx carries no recorded span.
func TraceMetadata(ctx context.Context) []byte {
	if !trace.SpanFromContext(ctx).IsRecording() {
		return nil
	}
	md := map[string]string{}
	InjectTrace(ctx, md)
	return EncodeMetadata(md)
}

// EncodeMetadata is md as the msgpack map a Redis stream entry's "metadata" field holds.
func EncodeMetadata(md map[string]string) []byte {
	if len(md) == 0 {
		return nil
	}
	b, _ := msgpack.Marshal(md)
	return b
}
