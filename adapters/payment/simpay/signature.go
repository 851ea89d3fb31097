// Package simpay is a simulated payment provider that behaves like the real ones: a
// payment is created at once and its outcome arrives later as an HMAC-signed
// notification the provider POSTs to the shop's notify URL (retried until answered
// 2xx), and refunds are idempotent per payment. It also holds the inbound side: the
// signature check and the handler of POST /payments/notify.
package simpay

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// SignatureHeader carries a notification's signature: "t=<unix seconds>,v1=<hex>",
// where v1 is HMAC-SHA256 over "<t>.<raw body>" with the shared secret.
const SignatureHeader = "Dealspot-Signature"

// Sign returns the SignatureHeader value of body signed at t.
func Sign(secret []byte, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	return "t=" + ts + ",v1=" + hex.EncodeToString(mac(secret, ts, body))
}

func mac(secret []byte, ts string, body []byte) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(ts))
	m.Write([]byte{'.'})
	m.Write(body)
	return m.Sum(nil)
}

// ErrBadSignature is a notification whose signature is missing, malformed, wrong or
// too old.
var ErrBadSignature = errors.New("bad payment notification signature")

// Verifier checks notifications' signatures.
type Verifier struct {
	Secret []byte
	// Tolerance is how old (or how far in the future) a signature's time may be, against
	// replays.
	Tolerance time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Verify checks header against body.
func (v Verifier) Verify(header string, body []byte) error {
	var ts, sig string
	for _, part := range strings.Split(header, ",") {
		k, val, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "t":
			ts = val
		case "v1":
			sig = val
		}
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || sig == "" {
		return fmt.Errorf("%w: malformed header", ErrBadSignature)
	}
	got, err := hex.DecodeString(sig)
	if err != nil || !hmac.Equal(got, mac(v.Secret, ts, body)) {
		return fmt.Errorf("%w: does not match", ErrBadSignature)
	}
	now := time.Now
	if v.Now != nil {
		now = v.Now
	}
	if age := now().Sub(time.Unix(sec, 0)); age > v.Tolerance || age < -v.Tolerance {
		return fmt.Errorf("%w: signed %s from now, beyond the tolerance of %s", ErrBadSignature, age.Round(time.Second), v.Tolerance)
	}
	return nil
}
