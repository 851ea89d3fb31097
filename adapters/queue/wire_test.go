package queue_test

import (
	"errors"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/queue"
	"github.com/dealspot/dealspot/internal/domain"
)

func TestClaimWireFormat(t *testing.T) {
	t.Parallel()
	c := domain.Claim{OrderID: 1<<62 + 12345, UserID: 42, VoucherID: 7, ClaimedAt: time.UnixMilli(1760000000123).UTC()}
	const want = `{"orderId":"4611686018427400249","userId":"42","voucherId":"7","claimedAt":1760000000123}`
	if got := string(queue.EncodeClaim(c)); got != want {
		t.Fatalf("EncodeClaim = %s, want %s", got, want)
	}
	got, err := queue.DecodeClaim([]byte(want))
	if err != nil || got != c {
		t.Fatalf("DecodeClaim = %+v, %v; want %+v", got, err, c)
	}
	// Sub-millisecond precision is not carried.
	c.ClaimedAt = c.ClaimedAt.Add(456 * time.Microsecond)
	if got, _ := queue.DecodeClaim(queue.EncodeClaim(c)); !got.ClaimedAt.Equal(time.UnixMilli(1760000000123)) {
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
			got, err := queue.DecodeClaim([]byte(body))
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
			if _, err := queue.DecodeClaim([]byte(body)); !errors.Is(err, queue.ErrMalformedClaim) {
				t.Fatalf("DecodeClaim(%s) error = %v, want ErrMalformedClaim", body, err)
			}
		})
	}
}

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
		{5, 0, "{s5}"}, // zero shards means the default, 16
	} {
		if got := queue.ShardTag(tc.voucher, tc.shards); got != tc.tag {
			t.Errorf("ShardTag(%d, %d) = %s, want %s", tc.voucher, tc.shards, got, tc.tag)
		}
		if got, want := queue.StreamForVoucher(tc.voucher, tc.shards), "orders:"+tc.tag; got != want {
			t.Errorf("StreamForVoucher(%d, %d) = %s, want %s", tc.voucher, tc.shards, got, want)
		}
	}
}

func TestConfigDefaultsAndValidation(t *testing.T) {
	t.Parallel()
	c := queue.Config{}.WithDefaults()
	if c.Backend != queue.BackendMemory || c.Shards != 16 || c.Group != "dealspot-orders" ||
		c.BatchSize != 256 || c.BatchWait != 5*time.Millisecond || c.MaxRetries != 5 || c.Consumers != 1 {
		t.Fatalf("defaults = %+v", c)
	}
	if got := (queue.Config{Backend: queue.BackendAMQP}).WithDefaults().Consumers; got != queue.DefaultAMQPConsumers {
		t.Fatalf("amqp consumers default = %d, want %d", got, queue.DefaultAMQPConsumers)
	}
	for name, cfg := range map[string]queue.Config{
		"unknown backend":  {Backend: "nats"},
		"kafka no brokers": {Backend: queue.BackendKafka},
		"amqp no url":      {Backend: queue.BackendAMQP},
	} {
		if err := cfg.WithDefaults().Validate(); err == nil {
			t.Errorf("%s: Validate accepted %+v", name, cfg)
		}
	}
}
