package authtest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/auth"
)

// Delivery is a login code as it reached its phone.
type Delivery struct {
	Phone, Code string
}

// CodeSenderContract is what every auth.CodeSender must do, as its doc comment says: a
// code whose Send returned no error reaches its phone. newSender returns a sender and
// what has reached the phones so far (which may come a moment after Send returns).
func CodeSenderContract(t *testing.T, newSender func(t *testing.T) (auth.CodeSender, func() []Delivery)) {
	t.Helper()
	t.Run("every code sent reaches its phone", func(t *testing.T) {
		t.Parallel()
		sender, delivered := newSender(t)
		want := []Delivery{{newPhone(), "123456"}, {newPhone(), "654321"}}
		want = append(want, Delivery{want[0].Phone, "000042"})
		for _, d := range want {
			if err := sender.Send(context.Background(), d.Phone, d.Code); err != nil {
				t.Fatalf("send %s to %s: %v", d.Code, d.Phone, err)
			}
		}
		deadline := time.Now().Add(10 * time.Second)
		for {
			got := delivered()
			if !slices.ContainsFunc(want, func(d Delivery) bool { return !slices.Contains(got, d) }) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("delivered %+v, want %+v among them", got, want)
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
}

// Delivered returns every code sent, by phone in no order, each phone's codes oldest
// first.
func (s *MemSender) Delivered() []Delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Delivery
	for phone, codes := range s.codes {
		for _, c := range codes {
			out = append(out, Delivery{phone, c})
		}
	}
	return out
}
