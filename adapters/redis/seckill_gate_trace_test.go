package redis_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/vmihailenco/msgpack"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/dealspot/dealspot/adapters/claimwire"
	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/internal/app/seckill"
)

// Where the gate enqueues claims, the stream entry of a claim reserved within a recorded
// trace carries the gate's publish span in its metadata (what the consumer continues);
// an untraced claim's entry has empty metadata and the gate starts no span. Claim by
// claim and coalesced.
func TestGateCarriesTheClaimsTraceIntoTheStream(t *testing.T) {
	t.Parallel()
	eachGateMode(t, redis.Coalescing{Window: 200 * time.Microsecond, Max: 8}, func(t *testing.T, conn *redis.Conn, coalesce redis.Coalescing) {
		ctx := context.Background()
		base := time.Now().UnixNano()%1_000_000*100 + gateSales.Add(1)*10
		voucher := base + 1
		// The stream shares the sale's hash tag, as the queue's shard streams do.
		streamKey := fmt.Sprintf("orders-test:%s:%d", claimwire.ShardTag(voucher, 4), voucher)
		t.Cleanup(func() { conn.Client.Del(context.Background(), streamKey) })
		gate, err := redis.NewSaleGate(conn.Client, redis.GateConfig{Shards: 4, Coalesce: coalesce,
			ClaimStream: func(int64) string { return streamKey }})
		if err != nil {
			t.Fatal(err)
		}
		now := time.Now()
		if _, err := gate.Load(ctx, seckill.SaleState{VoucherID: voucher, Stock: 5, BeginTime: now.Add(-time.Minute), EndTime: now.Add(time.Hour)}, true); err != nil {
			t.Fatal(err)
		}
		recorder := tracetest.NewSpanRecorder()
		tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(recorder))
		traced, claim := tp.Tracer("test").Start(ctx, "claim")
		if v, _, err := gate.Reserve(traced, seckill.Reservation{OrderID: base*1000 + 1, UserID: base + 1, VoucherID: voucher, At: now}); err != nil || v != seckill.Accepted {
			t.Fatalf("traced claim: %v %v", v, err)
		}
		claim.End()
		if v, _, err := gate.Reserve(ctx, seckill.Reservation{OrderID: base*1000 + 2, UserID: base + 2, VoucherID: voucher, At: now}); err != nil || v != seckill.Accepted {
			t.Fatalf("untraced claim: %v %v", v, err)
		}

		spans := map[string]sdktrace.ReadOnlySpan{}
		for _, s := range recorder.Ended() {
			spans[s.Name()] = s
		}
		reserve, publish := spans["seckill.gate reserve"], spans[streamKey+" publish"]
		if reserve == nil || publish == nil || len(recorder.Ended()) != 3 {
			t.Fatalf("spans %v, want the claim, one reserve and one publish", spans)
		}
		if reserve.Parent().SpanID() != claim.SpanContext().SpanID() || publish.Parent().SpanID() != reserve.SpanContext().SpanID() {
			t.Errorf("reserve's parent %v, publish's parent %v: want claim → reserve → publish", reserve.Parent(), publish.Parent())
		}

		entries, err := conn.Client.XRange(ctx, streamKey, "-", "+").Result()
		if err != nil || len(entries) != 2 {
			t.Fatalf("stream entries %v (%v), want 2", entries, err)
		}
		var md map[string]string
		if err := msgpack.Unmarshal([]byte(entries[0].Values["metadata"].(string)), &md); err != nil {
			t.Fatalf("traced entry's metadata: %v", err)
		}
		sc := claimwire.ExtractTrace(md)
		if sc.TraceID() != claim.SpanContext().TraceID() || sc.SpanID() != publish.SpanContext().SpanID() {
			t.Errorf("traced entry carries %v, want the publish span %v", sc, publish.SpanContext())
		}
		if got := entries[1].Values["metadata"]; got != "" {
			t.Errorf("untraced entry's metadata %q, want empty", got)
		}
	})
}

// A claim in bucket b > 0 of a split sale is XADDed to the stream of the shard its
// bucket was placed on (by slot, not the sale's shard + b), and its publish span names
// that stream: the span and the entry agree. Claim by claim and coalesced.
func TestGatePublishSpanNamesTheSplitBucketsStream(t *testing.T) {
	t.Parallel()
	const shards = 16
	eachGateMode(t, redis.Coalescing{Window: 200 * time.Microsecond, Max: 8}, func(t *testing.T, conn *redis.Conn, coalesce redis.Coalescing) {
		ctx := context.Background()
		base := time.Now().UnixNano()%1_000_000*100 + gateSales.Add(1)*10
		stream := func(id int64) string { return fmt.Sprintf("orders-test:%s:%d", claimwire.ShardTag(id, shards), base) }
		t.Cleanup(func() {
			for k := range int64(shards) {
				conn.Client.Del(context.Background(), stream(k))
			}
		})
		gate, err := redis.NewSaleGate(conn.Client, redis.GateConfig{Shards: shards, Coalesce: coalesce, ClaimStream: stream})
		if err != nil {
			t.Fatal(err)
		}
		// A sale whose bucket 1 is not on the shard after the sale's own.
		voucher := base + 1
		for redis.PlaceBuckets(gate, claimwire.Shard(voucher, shards), 2)[1] == claimwire.Shard(voucher+1, shards) {
			voucher++
		}
		placed := redis.PlaceBuckets(gate, claimwire.Shard(voucher, shards), 2)[1]
		now := time.Now()
		if _, err := gate.Load(ctx, seckill.SaleState{VoucherID: voucher, Stock: 5, Buckets: 2, BeginTime: now.Add(-time.Minute), EndTime: now.Add(time.Hour)}, true); err != nil {
			t.Fatal(err)
		}
		user := usersOf(1, 1, 2, base)[0]
		recorder := tracetest.NewSpanRecorder()
		tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(recorder))
		traced, claim := tp.Tracer("test").Start(ctx, "claim")
		order := base*1000 + 1
		if v, _, err := gate.Reserve(traced, seckill.Reservation{OrderID: order, UserID: user, VoucherID: voucher, At: now, Buckets: 2}); err != nil || v != seckill.Accepted {
			t.Fatalf("claim: %v %v", v, err)
		}
		claim.End()

		// The stream the claim's entry actually went to.
		var written []string
		for k := range int64(shards) {
			entries, err := conn.Client.XRange(ctx, stream(k), "-", "+").Result()
			if err != nil {
				t.Fatal(err)
			}
			if len(entries) > 0 {
				written = append(written, stream(k))
			}
		}
		if len(written) != 1 || written[0] != stream(int64(placed)) {
			t.Fatalf("entries in streams %v, want one in bucket 1's shard stream %q", written, stream(int64(placed)))
		}
		var publish sdktrace.ReadOnlySpan
		for _, s := range recorder.Ended() {
			if s.SpanKind() == trace.SpanKindProducer {
				publish = s
			}
		}
		if publish == nil {
			t.Fatalf("no publish span among %d spans", len(recorder.Ended()))
		}
		var dest string
		for _, a := range publish.Attributes() {
			if a.Key == "messaging.destination.name" {
				dest = a.Value.AsString()
			}
		}
		if dest != written[0] || publish.Name() != written[0]+" publish" {
			t.Errorf("publish span %q names stream %q, the entry is in %q", publish.Name(), dest, written[0])
		}
	})
}
