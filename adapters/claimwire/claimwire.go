// Package claimwire is what the claim gate and the order queue agree on: the bytes of a
// claim's order message, the shard a voucher belongs to, the name of that shard's order
// stream, and how a claim's trace context rides in the message's metadata, in that order
// below. The gate's Lua script writes messages in this format to these streams
// (adapters/redis), and the queue reads and writes the same (adapters/queue); neither
// adapter imports the other.
package claimwire

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/vmihailenco/msgpack"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/dealspot/dealspot/internal/domain"
)

// The claim: a message body.

// claimPayload is the wire format of a claim; ids are decimal strings because order
// ids do not fit Lua's numbers.
type claimPayload struct {
	OrderID   string `json:"orderId"`
	UserID    string `json:"userId"`
	VoucherID string `json:"voucherId"`
	ClaimedAt int64  `json:"claimedAt"`
}

// EncodeClaim returns the message body for c:
// {"orderId":"<decimal>","userId":"<decimal>","voucherId":"<decimal>","claimedAt":<unix ms>},
// byte for byte what the gate's reserve script XADDs.
func EncodeClaim(c domain.Claim) []byte {
	// Appended by hand, as json.Marshal of claimPayload writes it (decimal digits need no
	// escaping): one allocation, on every accepted claim's path.
	b := make([]byte, 0, 96)
	b = append(b, `{"orderId":"`...)
	b = strconv.AppendInt(b, c.OrderID, 10)
	b = append(b, `","userId":"`...)
	b = strconv.AppendInt(b, c.UserID, 10)
	b = append(b, `","voucherId":"`...)
	b = strconv.AppendInt(b, c.VoucherID, 10)
	b = append(b, `","claimedAt":`...)
	b = strconv.AppendInt(b, c.ClaimedAt.UnixMilli(), 10)
	return append(b, '}')
}

// ErrMalformedClaim is returned by DecodeClaim for a body that is not a claim.
var ErrMalformedClaim = errors.New("malformed claim")

// DecodeClaim parses a message body written by EncodeClaim or by the gate script. It
// accepts ids as strings or plain numbers and claimedAt as an integer or a float in
// milliseconds; every id must be positive.
func DecodeClaim(b []byte) (domain.Claim, error) {
	// What EncodeClaim writes (every message Dealspot sends) is read without
	// encoding/json, which cost the order writer about 8 µs per claim; anything else
	// goes through it.
	if c, ok := decodeCanonical(b); ok {
		return c, nil
	}
	return decodeJSON(b)
}

// decodeCanonical reads exactly the form EncodeClaim writes, with positive ids without
// leading zeros and a non-negative claimedAt; ok is false for any other body.
func decodeCanonical(b []byte) (_ domain.Claim, ok bool) {
	var c domain.Claim
	var ms int64
	if b, ok = bytes.CutPrefix(b, []byte(`{"orderId":"`)); !ok {
		return c, false
	}
	if c.OrderID, b, ok = canonicalDigits(b); !ok || c.OrderID == 0 {
		return c, false
	}
	if b, ok = bytes.CutPrefix(b, []byte(`","userId":"`)); !ok {
		return c, false
	}
	if c.UserID, b, ok = canonicalDigits(b); !ok || c.UserID == 0 {
		return c, false
	}
	if b, ok = bytes.CutPrefix(b, []byte(`","voucherId":"`)); !ok {
		return c, false
	}
	if c.VoucherID, b, ok = canonicalDigits(b); !ok || c.VoucherID == 0 {
		return c, false
	}
	if b, ok = bytes.CutPrefix(b, []byte(`","claimedAt":`)); !ok {
		return c, false
	}
	if ms, b, ok = canonicalDigits(b); !ok || len(b) != 1 || b[0] != '}' {
		return c, false
	}
	c.ClaimedAt = time.UnixMilli(ms).UTC()
	return c, true
}

// canonicalDigits reads a decimal number that fits an int64, without a leading zero (or
// the single digit 0), at the start of b, and returns it with the rest of b.
func canonicalDigits(b []byte) (int64, []byte, bool) {
	// 19 digits at most: below 10^19, which a uint64 holds.
	n, i := uint64(0), 0
	for ; i < len(b) && i < 20 && b[i] >= '0' && b[i] <= '9'; i++ {
		n = n*10 + uint64(b[i]-'0')
	}
	if i == 0 || i > 19 || n > math.MaxInt64 || (b[0] == '0' && i > 1) {
		return 0, nil, false // none, beyond int64, or a leading zero
	}
	return int64(n), b[i:], true
}

// decodeJSON is DecodeClaim for any JSON body.
func decodeJSON(b []byte) (domain.Claim, error) {
	var raw struct {
		OrderID   json.RawMessage `json:"orderId"`
		UserID    json.RawMessage `json:"userId"`
		VoucherID json.RawMessage `json:"voucherId"`
		ClaimedAt json.RawMessage `json:"claimedAt"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return domain.Claim{}, fmt.Errorf("%w: %v", ErrMalformedClaim, err)
	}
	var c domain.Claim
	var err error
	if c.OrderID, err = decodeID("orderId", raw.OrderID); err != nil {
		return domain.Claim{}, err
	}
	if c.UserID, err = decodeID("userId", raw.UserID); err != nil {
		return domain.Claim{}, err
	}
	if c.VoucherID, err = decodeID("voucherId", raw.VoucherID); err != nil {
		return domain.Claim{}, err
	}
	ms, err := decodeMillis(raw.ClaimedAt)
	if err != nil {
		return domain.Claim{}, err
	}
	c.ClaimedAt = time.UnixMilli(ms).UTC()
	return c, nil
}

func decodeID(field string, raw json.RawMessage) (int64, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return 0, fmt.Errorf("%w: %s missing", ErrMalformedClaim, field)
	}
	text := string(raw)
	if raw[0] == '"' {
		if err := json.Unmarshal(raw, &text); err != nil {
			return 0, fmt.Errorf("%w: %s: %v", ErrMalformedClaim, field, err)
		}
	}
	id, err := strconv.ParseInt(text, 10, 64)
	if err != nil || id <= 0 {
		return 0, fmt.Errorf("%w: %s %q is not a positive integer", ErrMalformedClaim, field, text)
	}
	return id, nil
}

func decodeMillis(raw json.RawMessage) (int64, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return 0, fmt.Errorf("%w: claimedAt missing", ErrMalformedClaim)
	}
	text := string(raw)
	if raw[0] == '"' {
		if err := json.Unmarshal(raw, &text); err != nil {
			return 0, fmt.Errorf("%w: claimedAt: %v", ErrMalformedClaim, err)
		}
	}
	if ms, err := strconv.ParseInt(text, 10, 64); err == nil {
		return ms, nil
	}
	// cjson may print large numbers in exponent form.
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > 1e18 {
		return 0, fmt.Errorf("%w: claimedAt %q is not a number of milliseconds", ErrMalformedClaim, text)
	}
	return int64(f), nil
}

// The shard: which stream a voucher's claims go to.

// streamPrefix starts the name of every shard's order stream.
const streamPrefix = "orders:"

// Shard returns the shard of a voucher: voucherID mod shards, never negative. shards is
// the setting the gate and the queue were given (SECKILL_SHARDS), which both refuse
// below 1; Shard panics on a count below 1.
func Shard(voucherID int64, shards int) int {
	if shards < 1 {
		panic("claimwire: shard count below 1")
	}
	k := voucherID % int64(shards)
	if k < 0 {
		k += int64(shards)
	}
	return int(k)
}

// ShardTag returns the Redis hash tag shared by every key of a voucher's sale and by
// its shard's order stream: "{s<k>}" with k = Shard(voucherID, shards).
func ShardTag(voucherID int64, shards int) string {
	return TagOfShard(Shard(voucherID, shards))
}

// TagOfShard returns the hash tag of shard k: "{s<k>}".
func TagOfShard(k int) string { return "{s" + strconv.Itoa(k) + "}" }

// ShardStream returns the order stream of shard k: "orders:{s<k>}".
func ShardStream(k int) string { return streamPrefix + TagOfShard(k) }

// StreamForVoucher returns the order stream of a voucher's shard: "orders:{s<k>}".
func StreamForVoucher(voucherID int64, shards int) string {
	return ShardStream(Shard(voucherID, shards))
}

// The trace: a claim's trace context in its message's metadata.

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
