package claimwire_test

import (
	"context"
	"testing"

	"github.com/vmihailenco/msgpack"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/dealspot/dealspot/adapters/claimwire"
)

func TestTraceContextRoundTrips(t *testing.T) {
	t.Parallel()
	tp := sdktrace.NewTracerProvider()
	ctx, span := tp.Tracer("test").Start(context.Background(), "claim")
	defer span.End()

	md := map[string]string{"order_id": "7"}
	claimwire.InjectTrace(ctx, md)
	if md["traceparent"] == "" {
		t.Fatalf("no traceparent in %v", md)
	}
	sc := claimwire.ExtractTrace(md)
	if sc.TraceID() != span.SpanContext().TraceID() || sc.SpanID() != span.SpanContext().SpanID() || !sc.IsSampled() || !sc.IsRemote() {
		t.Errorf("extracted %v, want the remote, sampled %v", sc, span.SpanContext())
	}

	// The stream entry's field decodes as the Redis Streams subscriber decodes it.
	var decoded map[string]string
	if err := msgpack.Unmarshal(claimwire.TraceMetadata(ctx), &decoded); err != nil {
		t.Fatal(err)
	}
	if decoded["traceparent"] != md["traceparent"] {
		t.Errorf("stream metadata %v, want traceparent %s", decoded, md["traceparent"])
	}
}

func TestNoTraceNoMetadata(t *testing.T) {
	t.Parallel()
	md := map[string]string{}
	claimwire.InjectTrace(context.Background(), md)
	if len(md) != 0 {
		t.Errorf("untraced claim carries %v", md)
	}
	if b := claimwire.TraceMetadata(context.Background()); b != nil {
		t.Errorf("untraced stream metadata %q, want none", b)
	}
	if sc := claimwire.ExtractTrace(map[string]string{"order_id": "7"}); sc.IsValid() {
		t.Errorf("extracted %v from metadata without a trace", sc)
	}
	// A span that is not recorded (sampled out) is not carried either.
	ctx := trace.ContextWithSpanContext(context.Background(), trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: trace.TraceID{1}, SpanID: trace.SpanID{1},
	}))
	if b := claimwire.TraceMetadata(ctx); b != nil {
		t.Errorf("unrecorded span's stream metadata %q, want none", b)
	}
}

func TestTraceMetadataAllocatesNothingWhenOff(t *testing.T) {
	ctx := context.Background()
	if n := testing.AllocsPerRun(100, func() { _ = claimwire.TraceMetadata(ctx) }); n != 0 {
		t.Errorf("%v allocations per untraced claim, want 0", n)
	}
}
