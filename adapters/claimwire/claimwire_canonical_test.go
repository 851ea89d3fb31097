package claimwire

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// EncodeClaim writes what json.Marshal of the wire struct writes, and the reader of that
// form agrees with the JSON decoder on it — and on every body derived from it by
// changing, dropping or adding one byte it either agrees or leaves the body to the JSON
// decoder.
func TestCanonicalClaimsReadAsJSONReadsThem(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	ids := []int64{1, 9, 10, 42, 1 << 62, 1<<62 + 12345, math.MaxInt64, math.MaxInt64 - 1}
	pick := func() int64 {
		if rng.IntN(3) == 0 {
			return ids[rng.IntN(len(ids))]
		}
		return rng.Int64N(math.MaxInt64) + 1
	}
	mutations := []byte(`0123456789"{},: -.ex`)
	for range 2000 {
		c := domain.Claim{OrderID: pick(), UserID: pick(), VoucherID: pick(), ClaimedAt: time.UnixMilli(rng.Int64N(1 << 45)).UTC()}
		body := EncodeClaim(c)
		want, _ := json.Marshal(claimPayload{OrderID: strconv.FormatInt(c.OrderID, 10), UserID: strconv.FormatInt(c.UserID, 10),
			VoucherID: strconv.FormatInt(c.VoucherID, 10), ClaimedAt: c.ClaimedAt.UnixMilli()})
		if string(body) != string(want) {
			t.Fatalf("EncodeClaim = %s, json.Marshal = %s", body, want)
		}
		if got, ok := decodeCanonical(body); !ok || got != c {
			t.Fatalf("decodeCanonical(%s) = %+v, %v; want %+v", body, got, ok, c)
		}
		for range 20 {
			m := []byte(string(body))
			i := rng.IntN(len(m))
			switch rng.IntN(3) {
			case 0:
				m[i] = mutations[rng.IntN(len(mutations))]
			case 1:
				m = append(m[:i], m[i+1:]...)
			default:
				m = append(m[:i], append([]byte{mutations[rng.IntN(len(mutations))]}, m[i:]...)...)
			}
			fast, ok := decodeCanonical(m)
			if !ok {
				continue
			}
			slow, err := decodeJSON(m)
			if err != nil || slow != fast {
				t.Fatalf("body %s: canonical reader %+v, JSON decoder %+v, %v", m, fast, slow, err)
			}
		}
	}
}

func BenchmarkDecodeClaim(b *testing.B) {
	body := EncodeClaim(domain.Claim{OrderID: 1<<62 + 12345, UserID: 123456, VoucherID: 77, ClaimedAt: time.UnixMilli(1760000000123)})
	b.Run("canonical", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := DecodeClaim(body); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := decodeJSON(body); err != nil {
				b.Fatal(err)
			}
		}
	})
}
