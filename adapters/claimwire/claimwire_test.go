package claimwire_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/vmihailenco/msgpack"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/dealspot/dealspot/adapters/claimwire"
	"github.com/dealspot/dealspot/internal/domain"
)

// The claim.

func TestClaimWireFormat(t *testing.T) {
	t.Parallel()
	c := domain.Claim{OrderID: 1<<62 + 12345, UserID: 42, VoucherID: 7, ClaimedAt: time.UnixMilli(1760000000123).UTC()}
	const want = `{"orderId":"4611686018427400249","userId":"42","voucherId":"7","claimedAt":1760000000123}`
	if got := string(claimwire.EncodeClaim(c)); got != want {
		t.Fatalf("EncodeClaim = %s, want %s", got, want)
	}
	got, err := claimwire.DecodeClaim([]byte(want))
	if err != nil || got != c {
		t.Fatalf("DecodeClaim = %+v, %v; want %+v", got, err, c)
	}
	// Sub-millisecond precision is not carried.
	c.ClaimedAt = c.ClaimedAt.Add(456 * time.Microsecond)
	if got, _ := claimwire.DecodeClaim(claimwire.EncodeClaim(c)); !got.ClaimedAt.Equal(time.UnixMilli(1760000000123)) {
		t.Fatalf("claimedAt %v, want truncated to the millisecond", got.ClaimedAt)
	}
}

func TestDecodeClaimAcceptsWhatLuaWrites(t *testing.T) {
	t.Parallel()
	want := domain.Claim{OrderID: 9, UserID: 8, VoucherID: 7, ClaimedAt: time.UnixMilli(1760000000000).UTC()}
	for name, body := range map[string]string{
		"numbers for ids":     `{"orderId":9,"userId":8,"voucherId":7,"claimedAt":1760000000000}`,
		"exponent claimedAt":  `{"orderId":"9","userId":"8","voucherId":"7","claimedAt":1.76e+12}`,
		"string claimedAt":    `{"orderId":"9","userId":"8","voucherId":"7","claimedAt":"1760000000000"}`,
		"unknown fields kept": `{"orderId":"9","userId":"8","voucherId":"7","claimedAt":1760000000000,"v":1}`,
	} {
		t.Run(name, func(t *testing.T) {
			got, err := claimwire.DecodeClaim([]byte(body))
			if err != nil || got != want {
				t.Fatalf("DecodeClaim(%s) = %+v, %v; want %+v", body, got, err, want)
			}
		})
	}
}

func TestDecodeClaimRejectsMalformedBodies(t *testing.T) {
	t.Parallel()
	for name, body := range map[string]string{
		"not json":          `orders`,
		"missing order id":  `{"userId":"8","voucherId":"7","claimedAt":1}`,
		"zero user":         `{"orderId":"9","userId":"0","voucherId":"7","claimedAt":1}`,
		"negative voucher":  `{"orderId":"9","userId":"8","voucherId":"-7","claimedAt":1}`,
		"id beyond 64 bits": `{"orderId":"99999999999999999999","userId":"8","voucherId":"7","claimedAt":1}`,
		"fraction id":       `{"orderId":"9.5","userId":"8","voucherId":"7","claimedAt":1}`,
		"missing claimedAt": `{"orderId":"9","userId":"8","voucherId":"7"}`,
		"text claimedAt":    `{"orderId":"9","userId":"8","voucherId":"7","claimedAt":"soon"}`,
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := claimwire.DecodeClaim([]byte(body)); !errors.Is(err, claimwire.ErrMalformedClaim) {
				t.Fatalf("DecodeClaim(%s) error = %v, want ErrMalformedClaim", body, err)
			}
		})
	}
}

// The shard.

func TestShardNames(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		voucher int64
		shards  int
		tag     string
	}{
		{3, 16, "{s3}"},
		{35, 16, "{s3}"},
		{16, 16, "{s0}"},
		{7, 4, "{s3}"},
		{-5, 4, "{s3}"}, // never negative
	} {
		if got := claimwire.ShardTag(tc.voucher, tc.shards); got != tc.tag {
			t.Errorf("ShardTag(%d, %d) = %s, want %s", tc.voucher, tc.shards, got, tc.tag)
		}
		if got, want := claimwire.StreamForVoucher(tc.voucher, tc.shards), "orders:"+tc.tag; got != want {
			t.Errorf("StreamForVoucher(%d, %d) = %s, want %s", tc.voucher, tc.shards, got, want)
		}
	}
}

// No shard count stands in for a missing one: the count is a setting the gate and the
// queue were given, and a count below 1 is a bug of the caller.
func TestShardRefusesACountBelowOne(t *testing.T) {
	t.Parallel()
	for _, shards := range []int{0, -16} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Shard(5, %d) did not panic", shards)
				}
			}()
			claimwire.Shard(5, shards)
		}()
	}
}

// The trace.

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
