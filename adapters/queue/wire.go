package queue

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/message/router/middleware"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/internal/domain"
)

// Metadata keys carried by order messages.
const (
	MetadataOrderID   = "order_id"
	MetadataVoucherID = "voucher_id"
)

// Topic names before the namespace is prepended.
const (
	ordersTopic       = "orders"
	deadLetterTopic   = "orders.dead"
	deadLetterStream  = "orders:dead"
	orderStreamPrefix = "orders:"
)

// EncodeClaim returns the message body for c:
// {"orderId":"<decimal>","userId":"<decimal>","voucherId":"<decimal>","claimedAt":<unix ms>},
// byte for byte what the gate script writes on the Redis backend.
func EncodeClaim(c domain.Claim) []byte { return redis.EncodeClaim(c) }

// ErrMalformedClaim is returned by DecodeClaim for a body that is not a claim.
var ErrMalformedClaim = errors.New("malformed claim")

// DecodeClaim parses a message body written by EncodeClaim or by the gate script. It
// accepts ids as strings or plain numbers and claimedAt as an integer or a float in
// milliseconds; every id must be positive.
func DecodeClaim(b []byte) (domain.Claim, error) {
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

// ShardTag returns the Redis hash tag shared by all keys of a voucher: "{s<k>}" with
// k = voucherID mod shards (DefaultShards when shards ≤ 0), as the gate uses it.
func ShardTag(voucherID int64, shards int) string {
	if shards <= 0 {
		shards = DefaultShards
	}
	return redis.ShardTag(voucherID, shards)
}

// StreamForVoucher returns the Redis order stream of a voucher's shard: "orders:{s<k>}".
func StreamForVoucher(voucherID int64, shards int) string {
	return orderStreamPrefix + ShardTag(voucherID, shards)
}

// shardStream returns the stream of shard k.
func shardStream(k int) string {
	return orderStreamPrefix + "{s" + strconv.Itoa(k) + "}"
}

// newClaimMessage builds the Watermill message for c: its UUID is the decimal order id.
func newClaimMessage(c domain.Claim) *message.Message {
	id := strconv.FormatInt(c.OrderID, 10)
	msg := message.NewMessage(id, EncodeClaim(c))
	msg.Metadata.Set(MetadataOrderID, id)
	msg.Metadata.Set(MetadataVoucherID, strconv.FormatInt(c.VoucherID, 10))
	middleware.SetCorrelationID(id, msg)
	return msg
}

func validClaim(c domain.Claim) error {
	if c.OrderID <= 0 || c.UserID <= 0 || c.VoucherID <= 0 {
		return fmt.Errorf("queue: claim needs positive order, user and voucher ids (got %d, %d, %d)",
			c.OrderID, c.UserID, c.VoucherID)
	}
	return nil
}
