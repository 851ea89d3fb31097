package claimwire_test

import (
	"errors"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/claimwire"
	"github.com/dealspot/dealspot/internal/domain"
)

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
